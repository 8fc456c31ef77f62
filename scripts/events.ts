import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readArchiveText } from '../worker/collector/event-archive';
import { isEventStoreMigrated, latestEvents } from '../worker/collector/event-log';
import { d1Runner, type SqlRunner } from '../worker/config/versions';
import { REDRIVE_PATH } from '../worker/dev/redrive-route';
import { EXIT_OK, fail, runTool, type StoreOptions } from './cli';
import { archivedObjects, followArchive } from './events/archive';
import {
  type ArchiveCommand,
  EVENTS_CLI_USAGE,
  type EventsCommand,
  parseEventsArgs,
} from './events/arguments';
import {
  DEAD_LETTERS_USAGE,
  type DeadLetterCommand,
  parseDeadLetterArgs,
} from './events/dead-letter-arguments';
import {
  DEAD_LETTER_HEADER,
  deadLetter,
  formatDeadLetter,
  formatDeadLetterDetail,
  latestDeadLetters,
  requestRedrive,
} from './events/dead-letters';
import { type FollowIo, followEvents } from './events/follow';
import {
  ARCHIVED_OBJECT_HEADER,
  EVENT_LINE_HEADER,
  formatArchivedObject,
  formatEventLine,
} from './events/format';
import { DEFAULT_PERSIST_TO, openLocalPlatform } from './local-platform';
import { remoteD1Runner } from './remote-d1';
import { runWrangler } from './wrangler-cli';

/**
 * `npm run events -- tail | list [count] | archive … | dead-letters …`: the analytics events the collector stored
 * locally while a developer used the funnel under `npm start`: the local store (EVENTS_DB events,
 * worker/collector/event-log.ts) and the event archive (EVENTS_ARCHIVE, the R2 bucket a deployed
 * worker writes, worker/collector/event-archive.ts). Reads the same local D1 and R2 files as
 * `wrangler dev`, through wrangler's platform proxy. `dead-letters` reads the dead letters and
 * asks for them to be sent again, locally or, with --remote, in the deployed EVENTS_DB.
 * Arguments and lines are in scripts/events/ (pure, tested); this file only does the I/O.
 */

interface LocalBindings {
  EVENTS_DB: D1Database;
  EVENTS_ARCHIVE: R2Bucket;
}

/** Runs `follow` until Ctrl-C (or SIGTERM), then returns so the proxy is disposed. */
async function untilStopped(follow: (io: FollowIo) => Promise<number>): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    console.log(EVENT_LINE_HEADER);
    await follow({
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

async function archive(bucket: R2Bucket, command: ArchiveCommand): Promise<number> {
  if (command.name === 'tail') {
    await untilStopped((io) => followArchive(bucket, io));
    return EXIT_OK;
  }
  if (command.name === 'read') {
    const text = await readArchiveText(bucket, command.key);
    if (text === null) return fail(`no object "${command.key}" in the local archive`);
    process.stdout.write(text);
    return EXIT_OK;
  }
  const objects = await archivedObjects(bucket, command.date);
  if (objects.length === 0) {
    console.log(
      command.date === null ? 'Nothing archived yet.' : `Nothing archived on ${command.date}.`,
    );
    return EXIT_OK;
  }
  console.log([ARCHIVED_OBJECT_HEADER, ...objects.map(formatArchivedObject)].join('\n'));
  return EXIT_OK;
}

async function run(command: EventsCommand, options: StoreOptions): Promise<number> {
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  const platform = await openLocalPlatform<LocalBindings>(persistTo);
  try {
    if (command.name === 'archive')
      return await archive(platform.env.EVENTS_ARCHIVE, command.archive);
    const db = platform.env.EVENTS_DB;
    if (!(await isEventStoreMigrated(db))) {
      const flag = options.persistTo ? ` -- --persist-to ${options.persistTo}` : '';
      return fail(
        `the events database in ${persistTo} has not been migrated yet: run npm start or npm run events:migrate${flag} first`,
      );
    }
    if (command.name === 'tail') await untilStopped((io) => followEvents(db, io));
    else await list(db, command.count);
    return EXIT_OK;
  } finally {
    await platform.dispose();
  }
}

/** Asks the local worker (npm start's, or --url's) to send what is asked for, at once. */
async function sendLocalRedrive(worker: URL): Promise<string> {
  try {
    const response = await fetch(new URL(REDRIVE_PATH, worker), { method: 'POST' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { sent } = (await response.json()) as { sent: number };
    return `The local worker sent ${sent} to the events queue.`;
  } catch {
    return `No worker answered at ${worker.origin}: run npm start (or pass --url) and run this again to send them (nothing is sent twice).`;
  }
}

async function deadLetters(
  sql: SqlRunner,
  command: DeadLetterCommand,
  remote: boolean,
): Promise<number> {
  if (command.name === 'list') {
    const rows = await latestDeadLetters(sql, command.count);
    console.log(
      rows.length === 0
        ? 'No dead letters.'
        : [DEAD_LETTER_HEADER, ...rows.map(formatDeadLetter)].join('\n'),
    );
    return EXIT_OK;
  }
  if (command.name === 'show') {
    const row = await deadLetter(sql, command.id);
    if (row === null) return fail(`no dead letter ${command.id}`);
    console.log(formatDeadLetterDetail(row));
    return EXIT_OK;
  }
  const { requested, waiting, pastWindows } = await requestRedrive(sql, command, Date.now());
  if (pastWindows.length > 0 && !command.force) {
    return fail(
      [
        'nothing asked: these rows would reach a destination past the window it drops repeats in,',
        'where one that had the event after all would count it twice:',
        ...pastWindows.map(
          (row) => `  ${row.seq}: ${row.destination}, ${row.ageHours} hours after its event`,
        ),
        'Narrow the rows (an id, --since, --destination), or run again with --force to send them.',
      ].join('\n'),
    );
  }
  console.log(`Asked to redrive ${requested} row(s); ${waiting} waiting to be sent.`);
  if (waiting === 0) return EXIT_OK;
  console.log(
    remote || command.url === null
      ? "The deployed worker's cron sends them within 15 minutes; list shows when."
      : await sendLocalRedrive(command.url),
  );
  return EXIT_OK;
}

async function runDeadLetters(command: DeadLetterCommand, options: StoreOptions): Promise<number> {
  if (options.remote) {
    const sql = remoteD1Runner('EVENTS_DB', options.environment, runWrangler);
    return deadLetters(sql, command, true);
  }
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  const platform = await openLocalPlatform<LocalBindings>(persistTo);
  try {
    return await deadLetters(d1Runner(platform.env.EVENTS_DB), command, false);
  } finally {
    await platform.dispose();
  }
}

const argv = process.argv.slice(2);
process.exitCode =
  argv[0] === 'dead-letters'
    ? await runTool(argv.slice(1), {
        usage: DEAD_LETTERS_USAGE,
        parseArgs: parseDeadLetterArgs,
        run: runDeadLetters,
      })
    : await runTool(argv, { usage: EVENTS_CLI_USAGE, parseArgs: parseEventsArgs, run });
