import { parseCount } from '../cli';

/**
 * `npm run portal -- reminders --scheduled [--url <origin> | --port <n>]`: the renewal reminders
 * scheduled in the worker's subscription ledger, which only the running worker can read (its
 * Durable Objects are out of reach of wrangler's platform proxy, as for `npm run experiments --
 * simulate`), so it asks the worker's console API rather than the portal's D1. The arguments'
 * side; scheduled-reminders.ts does the call.
 */

/** `npm start`'s port (package.json: wrangler dev --port 8787). */
export const DEFAULT_WORKER_PORT = 8787;

export interface ScheduledRemindersCommand {
  name: 'scheduled-reminders';
  /** The worker's origin: --url, else npm start's on --port. */
  url: string;
}

type Parsed = { ok: true; command: ScheduledRemindersCommand } | { ok: false; error: string };

/**
 * The command from what followed `reminders --scheduled`: no words, at most one of `--url` and
 * `--port`, no `--amount`, and no `--persist-to` (the worker keeps its own state; it is named by
 * its address).
 */
export function parseScheduledReminders(
  rest: readonly string[],
  values: { url?: string; port?: string; amount?: string },
  persistTo: string | undefined,
): Parsed {
  if (rest.length > 0) return { ok: false, error: 'reminders takes no arguments' };
  if (values.amount !== undefined) {
    return {
      ok: false,
      error: '--amount is for renew, renewal-failed, refund, chargeback and cancel',
    };
  }
  if (persistTo !== undefined) {
    return {
      ok: false,
      error:
        '--persist-to: reminders --scheduled reads the running worker, which keeps its own state; name it with --url or --port',
    };
  }
  if (values.url !== undefined) {
    if (values.port !== undefined) {
      return { ok: false, error: '--port and --url name the worker twice: give one' };
    }
    const url = URL.canParse(values.url) ? new URL(values.url) : null;
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return {
        ok: false,
        error: `--url must be an http(s) address such as http://localhost:${DEFAULT_WORKER_PORT}`,
      };
    }
    return { ok: true, command: { name: 'scheduled-reminders', url: url.origin } };
  }
  const port = parseCount(values.port ?? String(DEFAULT_WORKER_PORT), { min: 1, max: 65535 });
  if (!port.ok) return { ok: false, error: `--port: ${port.error}` };
  return {
    ok: true,
    command: { name: 'scheduled-reminders', url: `http://localhost:${port.count}` },
  };
}
