import { type ParsedArgs, parseCount, parseLocalArgs } from '../cli';

/** The arguments of `npm run events` (scripts/events.ts). */

export const DEFAULT_LIST_COUNT = 20;
export const MAX_LIST_COUNT = 10_000;

export const EVENTS_CLI_USAGE = `Usage: npm run events -- <command> [options]

Shows the analytics events the collector (POST /e) stored locally while you used the funnel
(npm start, no AMPLITUDE_API_KEY): time (UTC, the visitor's clock), event, screen,
visitor/user, insert_id.

Commands:
  tail                       every stored event, then each new one as it arrives (Ctrl-C stops)
  list [count]               the last <count> events (default ${DEFAULT_LIST_COUNT})

The local event archive, the gzip NDJSON objects a deployed worker writes to R2 (docs/analytics.md,
"The event archive"), which npm start writes too:
  archive list [YYYY-MM-DD]  its objects (all, or of that UTC day): key, events, bytes
  archive read <key>         one object's lines, decompressed, as DuckDB reads them
  archive tail               the events of every object, then of each new one (Ctrl-C stops)

What the collector's queue gave up on (EVENTS_DB dead_letters; npm run events -- dead-letters --help):
  dead-letters list | show <id> | redrive [<id>] [--since <time>] [--remote]

Options:
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state)
  --help              show this text`;

export type ArchiveCommand =
  | { name: 'list'; date: string | null }
  | { name: 'read'; key: string }
  | { name: 'tail' };

export type EventsCommand =
  | { name: 'tail' }
  | { name: 'list'; count: number }
  | { name: 'archive'; archive: ArchiveCommand };

type Parsed<C> = { ok: true; command: C } | { ok: false; error: string };

/** A real calendar day written YYYY-MM-DD, as the archive's dt= partitions name it. */
function isDay(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) &&
    !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
    new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)
  );
}

function parseArchiveArgs(rest: readonly string[]): Parsed<ArchiveCommand> {
  const [name, ...args] = rest;
  if (name === 'tail') {
    if (args.length > 0) return { ok: false, error: 'archive tail takes no arguments' };
    return { ok: true, command: { name: 'tail' } };
  }
  if (name === 'list') {
    const [date, ...extra] = args;
    if (extra.length > 0) return { ok: false, error: 'archive list takes one day' };
    if (date !== undefined && !isDay(date)) {
      return { ok: false, error: `the day must be YYYY-MM-DD, not "${date}"` };
    }
    return { ok: true, command: { name: 'list', date: date ?? null } };
  }
  if (name === 'read') {
    const [key, ...extra] = args;
    if (key === undefined || extra.length > 0) {
      return { ok: false, error: 'archive read takes one object key' };
    }
    return { ok: true, command: { name: 'read', key } };
  }
  return {
    ok: false,
    error:
      name === undefined ? 'archive needs list, read or tail' : `unknown archive command "${name}"`,
  };
}

/** Only the local state can be read here; deployed events are in Amplitude or the R2 bucket. */
export function parseEventsArgs(argv: readonly string[]): ParsedArgs<EventsCommand> {
  const args = parseLocalArgs(
    argv,
    'the event store and archive are local only; deployed events go to Amplitude or R2',
  );
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (name === 'tail') {
    if (rest.length > 0) return { kind: 'usage-error', error: 'tail takes no arguments' };
    return { kind: 'run', command: { name: 'tail' }, options };
  }
  if (name === 'archive') {
    const parsed = parseArchiveArgs(rest);
    if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
    return { kind: 'run', command: { name: 'archive', archive: parsed.command }, options };
  }
  if (name !== 'list') return { kind: 'usage-error', error: `unknown command "${name}"` };
  const [countText = String(DEFAULT_LIST_COUNT), ...extra] = rest;
  if (extra.length > 0) return { kind: 'usage-error', error: 'list takes one count' };
  const parsed = parseCount(countText, { min: 1, max: MAX_LIST_COUNT });
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  return { kind: 'run', command: { name: 'list', count: parsed.count }, options };
}
