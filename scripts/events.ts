import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isEventStoreMigrated, latestEvents } from '../worker/collector/event-log';
import { EXIT_OK, fail, runTool, type StoreOptions } from './cli';
import { EVENTS_CLI_USAGE, type EventsCommand, parseEventsArgs } from './events/arguments';
import { followEvents } from './events/follow';
import { EVENT_LINE_HEADER, formatEventLine } from './events/format';
import { DEFAULT_PERSIST_TO, openLocalPlatform } from './local-platform';

/**
 * `npm run events -- tail | list [count]`: the analytics events the collector stored locally
 * (EVENTS_DB events, worker/collector/event-log.ts) while a developer used the funnel under
 * `npm start`. Reads the same local D1 files as `wrangler dev`, through wrangler's platform
 * proxy. Arguments and lines are in scripts/events/ (pure, tested); this file only does the I/O.
 */

/** Follows the store until Ctrl-C (or SIGTERM), then returns so the proxy is disposed. */
async function tail(db: D1Database): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    console.log(EVENT_LINE_HEADER);
    await followEvents(db, {
      print: (line) => console.log(line),
      sleep: (ms) => sleep(ms, undefined, { signal: stop.signal }).catch(() => {}),
      stopped: () => stop.signal.aborted,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function list(db: D1Database, count: number): Promise<void> {
  const rows = await latestEvents(db, count);
  if (rows.length === 0) {
    console.log('No events stored yet.');
    return;
  }
  console.log([EVENT_LINE_HEADER, ...rows.map(formatEventLine)].join('\n'));
}

async function run(command: EventsCommand, options: StoreOptions): Promise<number> {
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  const platform = await openLocalPlatform<{ EVENTS_DB: D1Database }>(persistTo);
  try {
    const db = platform.env.EVENTS_DB;
    if (!(await isEventStoreMigrated(db))) {
      const flag = options.persistTo ? ` -- --persist-to ${options.persistTo}` : '';
      return fail(
        `the events database in ${persistTo} has not been migrated yet: run npm start or npm run events:migrate${flag} first`,
      );
    }
    if (command.name === 'tail') await tail(db);
    else await list(db, command.count);
    return EXIT_OK;
  } finally {
    await platform.dispose();
  }
}

process.exitCode = await runTool(process.argv.slice(2), {
  usage: EVENTS_CLI_USAGE,
  parseArgs: parseEventsArgs,
  run,
});
