import { type ParsedArgs, parseCount, parseLocalArgs } from '../cli';

/** The arguments of `npm run events` (scripts/events.ts). */

export const DEFAULT_LIST_COUNT = 20;
export const MAX_LIST_COUNT = 10_000;

export const EVENTS_CLI_USAGE = `Usage: npm run events -- <command> [options]

Shows the analytics events the collector (POST /e) stored locally while you used the funnel
(npm start, no AMPLITUDE_API_KEY): time (UTC, the visitor's clock), event, screen,
visitor/user, insert_id.

Commands:
  tail          every stored event, then each new one as it arrives (Ctrl-C stops)
  list [count]  the last <count> events (default ${DEFAULT_LIST_COUNT})

Options:
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state)
  --help              show this text`;

export type EventsCommand = { name: 'tail' } | { name: 'list'; count: number };

/** Only the local store can be read here; deployed events are in Amplitude. */
export function parseEventsArgs(argv: readonly string[]): ParsedArgs<EventsCommand> {
  const args = parseLocalArgs(
    argv,
    'the event store is local only; deployed events go to Amplitude',
  );
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (name === 'tail') {
    if (rest.length > 0) return { kind: 'usage-error', error: 'tail takes no arguments' };
    return { kind: 'run', command: { name: 'tail' }, options };
  }
  if (name !== 'list') return { kind: 'usage-error', error: `unknown command "${name}"` };
  const [countText = String(DEFAULT_LIST_COUNT), ...extra] = rest;
  if (extra.length > 0) return { kind: 'usage-error', error: 'list takes one count' };
  const parsed = parseCount(countText, { min: 1, max: MAX_LIST_COUNT });
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  return { kind: 'run', command: { name: 'list', count: parsed.count }, options };
}
