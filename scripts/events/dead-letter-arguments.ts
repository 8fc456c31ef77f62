import { DESTINATIONS, type DestinationName } from '../../worker/collector/consumer/outcome';
import { type ParsedArgs, parseEnvironment, readArgs, type StoreOptions } from '../cli';

/** The arguments of `npm run events -- dead-letters …` (scripts/events.ts). */

export const DEFAULT_DEAD_LETTER_COUNT = 50;
/** `npm start`'s worker (wrangler dev --port 8787), whose development route sends a redrive. */
const DEFAULT_LOCAL_WORKER_URL = 'http://127.0.0.1:8787';
const MAX_DEAD_LETTER_COUNT = 10_000;

export const DEAD_LETTERS_USAGE = `Usage: npm run events -- dead-letters <command> [options]

The messages the collector's queue gave up on, kept in EVENTS_DB dead_letters for 30 days
(docs/operate.md, "Outages and dead letters").

Commands:
  list [count]        the last <count> rows (default ${DEFAULT_DEAD_LETTER_COUNT}): id, failed at, events,
                      first event type, insert_id, the destinations it never reached, and
                      whether it was redriven
  show <id>           one row: where it never arrived, why, how often it was tried, and the
                      stored message
  redrive [<id>]      sends the rows (all, or one) back to the events queue, each only to the
                      destinations it never reached; each row only once
    --since <time>    only rows that failed at or after <time> (YYYY-MM-DD or an ISO time, UTC)
    --destination <d> send to these destinations instead, comma-separated:
                      ${DESTINATIONS.join(', ')}
    --force           send even past a destination's de-duplication window (Amplitude 7 days,
                      Meta and TikTok 48 hours), where a destination that had it counts it twice;
                      without it such a redrive is refused and says which rows and where
    --url <origin>    the local worker that sends it (default ${DEFAULT_LOCAL_WORKER_URL}, npm start's)

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
  | {
      name: 'redrive';
      id: number | null;
      since: number | null;
      destinations: DestinationName[] | null;
      force: boolean;
      /** The local worker that sends it; null with --remote (the deployed worker's cron does). */
      url: URL | null;
    };

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
  const parsed = readArgs(argv, {
    since: { type: 'string' },
    destination: { type: 'string' },
    force: { type: 'boolean' },
    url: { type: 'string' },
  });
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
  for (const flag of ['since', 'destination', 'force', 'url'] as const) {
    if (name !== 'redrive' && values[flag] !== undefined) {
      return { kind: 'usage-error', error: `--${flag} is for redrive` };
    }
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
  if (name === 'redrive') return parseRedrive(rest, values, options);
  return {
    kind: 'usage-error',
    error:
      name === undefined ? 'dead-letters needs list, show or redrive' : `unknown command "${name}"`,
  };
}

/** `--destination amplitude,meta` as destination names; null when not given; else the error. */
function parseDestinations(text: string | undefined): DestinationName[] | null | string {
  if (text === undefined) return null;
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(DESTINATIONS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    return `--destination takes ${DESTINATIONS.join(', ')} (comma-separated), not "${unknown.join(', ') || text}"`;
  }
  return [...new Set(names)] as DestinationName[];
}

/** The local worker's origin; null with --remote; else the error. */
function parseWorkerUrl(text: string | undefined, remote: boolean): URL | null | string {
  if (remote)
    return text === undefined ? null : '--url is for the local worker; drop it with --remote';
  let url: URL;
  try {
    url = new URL(text ?? DEFAULT_LOCAL_WORKER_URL);
  } catch {
    return `--url takes an origin such as ${DEFAULT_LOCAL_WORKER_URL}, not "${text}"`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `--url takes an http(s) origin, not "${text}"`;
  }
  return url;
}

/** `redrive [<id>] [--since …] [--destination …] [--force] [--url …]`, after its name. */
function parseRedrive(
  rest: readonly string[],
  values: { since?: string; destination?: string; force?: boolean; url?: string },
  options: StoreOptions,
): ParsedArgs<DeadLetterCommand> {
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
  const destinations = parseDestinations(values.destination);
  if (typeof destinations === 'string') return { kind: 'usage-error', error: destinations };
  const url = parseWorkerUrl(values.url, options.remote);
  if (typeof url === 'string') return { kind: 'usage-error', error: url };
  return {
    kind: 'run',
    command: { name: 'redrive', id, since, destinations, force: values.force ?? false, url },
    options,
  };
}
