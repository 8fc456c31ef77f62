import { redactValue } from './log-redaction';

/**
 * One JSON object per line on stdout, read with `wrangler tail` (ARCHITECTURE.md, Ops).
 * Errors carry a stable `error` code so they can be counted and alerted on. Every line is written
 * here, and written redacted (./log-redaction.ts): no token, card number or session cookie
 * reaches the log, whatever a field holds.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

type Stream = 'log' | 'warn' | 'error';

function writeLine(stream: Stream, fields: LogFields): void {
  console[stream](JSON.stringify({ ts: new Date().toISOString(), ...fields }, redactValue));
}

export function logLine(fields: LogFields): void {
  writeLine('log', fields);
}

export function logError(code: string, fields: LogFields = {}): void {
  writeLine('error', { level: 'error', error: code, ...fields });
}

/**
 * Something ops should see but no visitor noticed (the product API's answer in another form than
 * ours, taken anyway): `warning` is its stable code, as `error` is an error's.
 */
export function logWarning(code: string, fields: LogFields = {}): void {
  writeLine('warn', { level: 'warn', warning: code, ...fields });
}

/** An error as a log line's `detail`: its name and message, or whatever was thrown, as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
