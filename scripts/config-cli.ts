import { readFile } from 'node:fs/promises';
import type { ExperimentsDocument } from '../shared/config/experiments';
import type { RoutingDocument } from '../shared/config/routing';
import type { ConfigDocument } from '../shared/console-api/config';
import type { FieldError } from '../shared/console-api/errors';
import {
  type CheckedDocument,
  type CheckRules,
  checkDocumentText,
  crossCheck,
  type InEffect,
  inEffectFromKv,
  type Result,
  SECTIONS,
  type Section,
  type SectionsInEffect,
  type SectionValues,
} from '../worker/config/document';
import { CONFIG_KEYS } from '../worker/config/load';
import { publish } from '../worker/config/publish';
import { EXIT_OK, fail, runTool } from './cli';
import {
  type CliOptions,
  type Command,
  documentFromKv,
  formatHistoryLine,
  formatSections,
  formatSummary,
  parseCliArgs,
  USAGE,
} from './config-document';
import { cliAuthor, cliPublishing, gateRefusalText, withConfigStores } from './config-stores';
import { type KvStore, withStore } from './kv-store';
import { runWrangler, type WranglerRunner } from './wrangler-cli';

/**
 * The marketers' config CLI: `npm run config -- get | show | validate <file> | set <file> |
 * history | seed` (scripts/config.ts is its entry).
 * Everything that decides something lives in `config-document.ts`; this file only reads the
 * file, talks to KV (local through wrangler's platform proxy, remote through the wrangler CLI;
 * both in `kv-store.ts`) and prints.
 */

// ---------------------------------------------------------------------------------------------
// KV

async function readAll(store: KvStore): Promise<Record<Section, string | null>> {
  const [split, flows, routing, experiments, content] = await Promise.all([
    store.read(CONFIG_KEYS.split),
    store.read(CONFIG_KEYS.flows),
    store.read(CONFIG_KEYS.routing),
    store.read(CONFIG_KEYS.experiments),
    store.read(CONFIG_KEYS.content),
  ]);
  return { split, flows, routing, experiments, content };
}

// ---------------------------------------------------------------------------------------------
// Commands

async function get(options: CliOptions, wrangler: WranglerRunner): Promise<number> {
  const { document, notes } = documentFromKv(await withStore(options, readAll, wrangler));
  for (const note of notes) console.error(note);
  console.log(JSON.stringify(document, null, 2));
  return EXIT_OK;
}

/** What KV's config does, readably: `get`'s document as `validate` summarises a file. */
async function show(options: CliOptions, wrangler: WranglerRunner): Promise<number> {
  const raws = await withStore(options, readAll, wrangler);
  const values = {} as SectionValues;
  for (const section of SECTIONS) {
    const current = inEffectFromKv(section, raws[section]);
    if (current.note) console.error(current.note);
    (values as Record<Section, unknown>)[section] = current.value;
  }
  console.log(formatSections(values).join('\n'));
  return EXIT_OK;
}

async function readDocumentFile(file: string): Promise<Result<CheckedDocument>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return { ok: false, error: `cannot read ${file}: ${reason}` };
  }
  return checkDocumentText(text);
}

interface AfterWrite {
  /** The sections that will be live once the file is written. */
  live: SectionsInEffect;
  /** The experiments live before it, which a running experiment's edits are held to. */
  running: ExperimentsDocument;
  /** The routes live before it, which a route's ramp is held to; undefined when KV has none. */
  liveRouting: RoutingDocument | undefined;
}

/**
 * The sections that will be live once the file is written: the file's, the rest from KV. KV is
 * only opened when the file lacks a section or holds experiments (what runs now is in KV).
 */
async function inEffectAfterWrite(
  checked: CheckedDocument,
  store: () => Promise<Record<Section, string | null>>,
): Promise<AfterWrite> {
  const { values } = checked;
  const whole = SECTIONS.every((section) => values[section]);
  const raws = whole && !values.experiments ? null : await store();
  const inEffect = <S extends Section>(section: S): InEffect<SectionValues[S]> => {
    const value = values[section] as SectionValues[S] | undefined;
    return value ? { value, origin: 'file' } : inEffectFromKv(section, raws?.[section] ?? null);
  };
  return {
    live: {
      split: inEffect('split'),
      flows: inEffect('flows'),
      routing: inEffect('routing'),
      experiments: inEffect('experiments'),
      content: inEffect('content'),
    },
    running: inEffectFromKv('experiments', raws?.experiments ?? null).value,
    liveRouting: raws?.routing ? inEffectFromKv('routing', raws.routing).value : undefined,
  };
}

function documentOf(live: SectionsInEffect): ConfigDocument {
  return {
    split: live.split.value,
    flows: live.flows.value,
    routing: live.routing.value,
    experiments: live.experiments.value,
    content: live.content.value,
  };
}

/** `validate` and `set` share this: the same checks, the same messages. */
async function checkFile(
  file: string,
  readCurrent: () => Promise<Record<Section, string | null>>,
  rules: CheckRules,
): Promise<Result<CheckedDocument>> {
  const checked = await readDocumentFile(file);
  if (!checked.ok) return checked;
  const { live, running, liveRouting } = await inEffectAfterWrite(checked.value, readCurrent);
  for (const section of SECTIONS) {
    const note = live[section].note;
    if (note) console.error(note);
  }
  const crossed = crossCheck(live, running, rules, liveRouting);
  if (!crossed.ok) return crossed;
  // As the console's check shows them: said, never a reason to refuse the file.
  for (const warning of crossed.value.warnings) {
    console.error(`warning: ${fieldErrorText(warning)}`);
  }
  console.log(
    formatSummary(checked.value.values, {
      split: live.split.origin,
      flows: live.flows.origin,
      routing: live.routing.origin,
      experiments: live.experiments.origin,
      content: live.content.origin,
    }),
  );
  return checked;
}

async function validate(
  file: string,
  options: CliOptions,
  wrangler: WranglerRunner,
): Promise<number> {
  // As set checks it: development's rules only for npm start's local state.
  const checked = await checkFile(file, () => withStore(options, readAll, wrangler), {
    development: !options.remote && options.environment === 'development',
  });
  if (!checked.ok) return fail(checked.error);
  return EXIT_OK;
}

/**
 * Publishes the file as the next version, as the console does (worker/config/publish.ts): the
 * sections it lacks are taken from what KV holds, the history records who and why, and a
 * publish that races another from the console is refused, not written over it.
 */
async function set(
  file: string,
  note: string,
  options: CliOptions,
  wrangler: WranglerRunner,
): Promise<number> {
  return withConfigStores(
    options,
    async (stores) => {
      const checked = await checkFile(file, () => readAll(stores.kv), stores.rules ?? {});
      if (!checked.ok) return fail(`${checked.error}; nothing written`);
      const { live } = await inEffectAfterWrite(checked.value, () => readAll(stores.kv));
      const head = await stores.versions.head();
      const outcome = await publish(stores, {
        base: head?.seq ?? null,
        document: documentOf(live),
        ...cliPublishing(note),
      });
      if (outcome.kind === 'invalid') {
        return fail(`${outcome.errors.map(fieldErrorText).join('; ')}; nothing written`);
      }
      if (outcome.kind === 'conflict') {
        return fail(
          `${outcome.head.id} was published by ${outcome.head.author} meanwhile; nothing written, run set again`,
        );
      }
      if (outcome.kind !== 'published') return fail(gateRefusalText(outcome));
      const { version } = outcome;
      console.log(
        `published ${version.id} to ${stores.kv.label} (keys ${SECTIONS.map((section) => `"${CONFIG_KEYS[section]}"`).join(', ')}), phase ${version.phase}`,
      );
      if (options.remote) {
        console.log('Edge locations pick the change up within about a minute (KV caching).');
      }
      return EXIT_OK;
    },
    wrangler,
  );
}

const fieldErrorText = (error: FieldError) =>
  error.path ? `${error.path}: ${error.message}` : error.message;

/**
 * `npm start` runs this before `wrangler dev`, so a fresh checkout serves SPEC.md's flows and the
 * console has a first version: with no history yet, what KV holds (the defaults in code for an
 * absent or invalid key) is published as v1. With a history, an absent key gets the newest
 * version's document back; a present one is left alone.
 */
async function seed(options: CliOptions, wrangler: WranglerRunner): Promise<number> {
  return withConfigStores(
    options,
    async (stores) => {
      const current = await readAll(stores.kv);
      const head = await stores.versions.head();
      if (head === null) {
        const inEffect: SectionsInEffect = {
          split: inEffectFromKv('split', current.split),
          flows: inEffectFromKv('flows', current.flows),
          routing: inEffectFromKv('routing', current.routing),
          experiments: inEffectFromKv('experiments', current.experiments),
          content: inEffectFromKv('content', current.content),
        };
        const outcome = await publish(stores, {
          base: null,
          document: documentOf(inEffect),
          author: cliAuthor(),
          note: 'seed',
          source: 'seed',
          clearance: { kind: 'seed' },
          now: new Date(),
        });
        if (outcome.kind !== 'published') return fail(`seed: ${outcome.kind}; nothing written`);
        for (const section of SECTIONS) {
          const from = inEffect[section].origin === 'kv' ? 'what KV held' : 'the defaults in code';
          console.log(
            `${section}: published ${from} as ${outcome.version.id} to ${stores.kv.label}`,
          );
        }
        return EXIT_OK;
      }
      for (const section of SECTIONS) {
        const key = CONFIG_KEYS[section];
        if (current[section] !== null) {
          console.log(`${section}: ${stores.kv.label} key "${key}" is set; left alone`);
          continue;
        }
        await stores.kv.write(key, head.serialized[section]);
        console.log(`${section}: wrote ${head.id} back to ${stores.kv.label} key "${key}"`);
      }
      return EXIT_OK;
    },
    wrangler,
  );
}

async function history(options: CliOptions, wrangler: WranglerRunner): Promise<number> {
  return withConfigStores(
    options,
    async (stores) => {
      const versions = await stores.versions.list();
      if (versions.length === 0) console.log('nothing published yet');
      for (const version of versions) console.log(formatHistoryLine(version));
      return EXIT_OK;
    },
    wrangler,
  );
}

function run(command: Command, options: CliOptions, wrangler: WranglerRunner): Promise<number> {
  switch (command.name) {
    case 'history':
      return history(options, wrangler);
    case 'get':
      return get(options, wrangler);
    case 'show':
      return show(options, wrangler);
    case 'validate':
      return validate(command.file, options, wrangler);
    case 'set':
      return set(command.file, command.note, options, wrangler);
    case 'seed':
      return seed(options, wrangler);
  }
}

/**
 * The CLI on `argv` (the words after `npm run config --`): prints as the tool does and returns
 * its exit code. scripts/config.ts runs it as a process; tests call it in-process, with a
 * stand-in for the wrangler CLI that `--remote` commands call.
 */
export function runConfigCli(
  argv: readonly string[],
  wrangler: WranglerRunner = runWrangler,
): Promise<number> {
  return runTool(argv, {
    usage: USAGE,
    parseArgs: parseCliArgs,
    run: (command, options) => run(command, options, wrangler),
  });
}
