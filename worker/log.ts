/**
 * One JSON object per line on stdout, read with `wrangler tail` (ARCHITECTURE.md, Ops).
 * Errors carry a stable `error` code so they can be counted and alerted on.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export function logLine(fields: LogFields): void {
  console.log(JSON.stringify({ ts: new Date().toISOString(), ...fields }));
}

export function logError(code: string, fields: LogFields = {}): void {
  console.error(
    JSON.stringify({ ts: new Date().toISOString(), level: 'error', error: code, ...fields }),
  );
}
