import { reset } from 'cloudflare:test';
import { afterEach, beforeEach, vi } from 'vitest';

type Line = Record<string, unknown>;

function parsed(spy: { mock: { calls: unknown[][] } }): Line[] {
  return spy.mock.calls.map(([text]) => JSON.parse(String(text)) as Line);
}

/**
 * For a test file of `/api` calls: silences the worker's JSON log lines during each test and
 * hands them back parsed (`requests`: one line per request, worker/middleware/request-log.ts;
 * `errors`: the logError lines; `warnings`: the logWarning lines), and wipes KV, D1 and the
 * rate-limit counters after each test.
 */
export function captureLogsPerTest() {
  let log: ReturnType<typeof vi.spyOn> | undefined;
  let error: ReturnType<typeof vi.spyOn> | undefined;
  let warn: ReturnType<typeof vi.spyOn> | undefined;
  beforeEach(() => {
    log = vi.spyOn(console, 'log').mockImplementation(() => {});
    error = vi.spyOn(console, 'error').mockImplementation(() => {});
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(async () => {
    await reset();
    vi.restoreAllMocks();
  });
  return {
    requests: () => (log ? parsed(log) : []),
    errors: () => (error ? parsed(error) : []),
    warnings: () => (warn ? parsed(warn) : []),
  };
}
