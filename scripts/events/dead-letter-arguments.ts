import { type ParsedArgs, parseEnvironment, readArgs } from '../cli';

/** The arguments of `npm run events -- dead-letters …` (scripts/events.ts). */

export const DEFAULT_DEAD_LETTER_COUNT = 50;
const MAX_DEAD_LETTER_COUNT = 10_000;

export const DEAD_LETTERS_USAGE = `Usage: npm run events -- dead-letters <command> [options]

The messages the collector's queue gave up on, kept in EVENTS_DB dead_letters for 30 days
(docs/operate.md, "Outages and dead letters").

Commands:
  list [count]        the last <count> rows (default ${DEFAULT_DEAD_LETTER_COUNT}): id, failed at, events,
                      first event type, insert_id, and whether it was redriven
  show <id>           one row, with the stored message
  redrive [<id>]      sends the rows (all, or one) back to the events queue; each row only once
    --since <time>    only rows that failed at or after <time> (YYYY-MM-DD or an ISO time, UTC)

Options:
  --env <name>        wrangler.toml's environment: development (the default; npm start's,
                      local only), staging ([env.staging]) or production (the top level)
  --remote            that environment's deployed EVENTS_DB (through wrangler; needs a login
                      and --env staging or --env production); a redrive is then sent by the
                      deployed worker's cron, within 15 minutes
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state);
                      a local redrive is sent by the worker npm start runs
  --help              show this text`;

export type DeadLetterCommand =
  | { name: 'list'; count: number }
  | { name: 'show'; id: number }
  | { name: 'redrive'; id: number | null; since: number | null };

const WHOLE_NUMBER = /^\d+$/;

/** `2026-11-22` (that day's start, UTC) or an ISO time with its zone; null if neither. */
export function parseSince(text: string): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const at = Date.parse(`${text}T00:00:00Z`);
    return Number.isNaN(at) || !new Date(at).toISOString().startsWith(text) ? null : at;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text))
    return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

function parseId(text: string | undefined): number | null {
  if (text === undefined || !WHOLE_NUMBER.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** `argv` after `dead-letters`. */
export function parseDeadLetterArgs(argv: readonly string[]): ParsedArgs<DeadLetterCommand> {
  const parsed = readArgs(argv, { since: { type: 'string' } });
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.remote && values['persist-to'] !== undefined) {
    return {
      kind: 'usage-error',
      error: '--persist-to is for the local state; drop it with --remote',
    };
  }
  const remote = values.remote ?? false;
  const environment = parseEnvironment(values.env, remote);
  if (!environment.ok) return { kind: 'usage-error', error: environment.error };
  // Locally, a redrive is sent by the worker npm start runs: development's state alone.
  if (!remote && environment.environment !== 'development') {
    return {
      kind: 'usage-error',
      error: `--env ${environment.environment} without --remote: only npm start's state is local`,
    };
  }
  const options = {
    remote,
    environment: environment.environment,
    persistTo: values['persist-to'],
  };
  const [name, ...rest] = positionals;
  if (name !== 'redrive' && values.since !== undefined) {
    return { kind: 'usage-error', error: '--since is for redrive' };
  }
  if (name === 'list') {
    const [countText, ...extra] = rest;
    if (extra.length > 0) return { kind: 'usage-error', error: 'list takes one count' };
    const count = countText === undefined ? DEFAULT_DEAD_LETTER_COUNT : Number(countText);
    if (
      countText !== undefined &&
      (!WHOLE_NUMBER.test(countText) || count < 1 || count > MAX_DEAD_LETTER_COUNT)
    ) {
      return {
        kind: 'usage-error',
        error: `count must be a whole number from 1 to ${MAX_DEAD_LETTER_COUNT}, not "${countText}"`,
      };
    }
    return { kind: 'run', command: { name: 'list', count }, options };
  }
  if (name === 'show') {
    const id = parseId(rest[0]);
    if (id === null || rest.length !== 1) {
      return { kind: 'usage-error', error: 'show takes one id (a number list prints)' };
    }
    return { kind: 'run', command: { name: 'show', id }, options };
  }
  if (name === 'redrive') {
    if (rest.length > 1) return { kind: 'usage-error', error: 'redrive takes at most one id' };
    const id = rest[0] === undefined ? null : parseId(rest[0]);
    if (rest[0] !== undefined && id === null) {
      return {
        kind: 'usage-error',
        error: `the id must be a number list prints, not "${rest[0]}"`,
      };
    }
    const since = values.since === undefined ? null : parseSince(values.since);
    if (values.since !== undefined && since === null) {
      return {
        kind: 'usage-error',
        error: `--since takes YYYY-MM-DD or an ISO time with its zone, not "${values.since}"`,
      };
    }
    return { kind: 'run', command: { name: 'redrive', id, since }, options };
  }
  return {
    kind: 'usage-error',
    error:
      name === undefined ? 'dead-letters needs list, show or redrive' : `unknown command "${name}"`,
  };
}
