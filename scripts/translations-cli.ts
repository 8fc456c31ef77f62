import { readFile } from 'node:fs/promises';
import { copyVersionStore } from '../worker/translations/copy-versions';
import { inBatches, publishCopy, readLiveCopy } from '../worker/translations/publish-copy';
import { TRANSLATION_KEYS } from '../worker/translations/source';
import { EXIT_OK, fail, runTool } from './cli';
import { cliPublishing, gateRefusalText, withConfigStores } from './config-stores';
import type { KvStore } from './kv-store';
import {
  type CheckedOverride,
  type CliOptions,
  type Command,
  checkOverride,
  languageOfFile,
  manifestFromKv,
  nextCopy,
  parseCliArgs,
  type Result,
  USAGE,
} from './translations-document';

/**
 * The copy CLI, run by `npm run translations` (translations.ts): `npm run translations -- get | validate <files> | publish <files> | remove
 * <langs>`. Decisions live in `translations-document.ts`; this file reads files, talks to KV
 * and CONFIG_DB (local through wrangler's platform proxy, remote through the wrangler CLI;
 * `kv-store.ts`, `config-stores.ts`) and prints.
 */

async function readManifest(store: KvStore) {
  return manifestFromKv(await store.read(TRANSLATION_KEYS.manifest));
}

async function checkFiles(files: readonly string[]): Promise<Result<CheckedOverride[]>> {
  const checked: CheckedOverride[] = [];
  const errors: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      errors.push(`cannot read ${file}: ${(error as Error).message}`);
      continue;
    }
    const result = checkOverride(languageOfFile(file), text);
    if (result.ok) checked.push(result.value);
    else errors.push(result.error);
  }
  const languages = checked.map((c) => c.language);
  if (new Set(languages).size !== languages.length) errors.push('a language is given twice');
  return errors.length ? { ok: false, error: errors.join('\n') } : { ok: true, value: checked };
}

async function get(options: CliOptions): Promise<number> {
  return withConfigStores(options, async ({ kv: store, sql }) => {
    const manifest = await readManifest(store);
    if (!manifest.ok) return fail(manifest.error);
    const head = await copyVersionStore(sql).head();
    const version = head
      ? `copy version ${head.id} (${head.source}, ${head.at} by ${head.author}${head.timestamp === manifest.value?.timestamp ? '' : '; KV no longer holds it'})`
      : 'no copy version published yet';
    if (!manifest.value) {
      console.log(`${store.label}: no manifest; every page uses the bundled text; ${version}`);
      return EXIT_OK;
    }
    const { timestamp, languages } = manifest.value;
    console.log(`${store.label}: manifest timestamp ${timestamp}, ${version}`);
    await inBatches(languages, async (language) => {
      const raw = await store.read(TRANSLATION_KEYS.dictionary(language, timestamp));
      const checked = raw === null ? null : checkOverride(language, raw);
      const state =
        checked === null ? 'MISSING' : checked.ok ? keyCount(checked.value.keys) : checked.error;
      console.log(`  ${language}: ${state}`);
    });
    return EXIT_OK;
  });
}

async function validate(files: readonly string[]): Promise<number> {
  const checked = await checkFiles(files);
  if (!checked.ok) return fail(checked.error);
  for (const { language, keys } of checked.value)
    console.log(`${language}: ${keyCount(keys)}, valid`);
  return EXIT_OK;
}

/**
 * Publishes through the same path as the console's Copy area (worker/translations/
 * publish-copy.ts): the overrides in effect after it are checked, stored as the next copy version
 * of CONFIG_DB's history, written under a new timestamp and named by the manifest. So a CLI
 * publish is in the console's History (and can be rolled back there), and the console's
 * publishes are what the CLI carries over.
 */
async function publish(
  overrides: readonly CheckedOverride[],
  remove: readonly string[],
  options: CliOptions,
  note: string,
): Promise<number> {
  return withConfigStores(options, async (config) => {
    const stores = { versions: copyVersionStore(config.sql), live: config.live, gate: config.gate };
    const head = await stores.versions.head();
    const live = await readLiveCopy(stores.live);
    // What is carried over: the history's head, else (before the first version) what KV holds.
    let current = head?.copy;
    if (!current) {
      if (!live.ok) {
        const unreadable = live.broken.filter((language) => !remove.includes(language));
        if (unreadable.length > 0 || live.broken.length === 0) {
          return fail(`${live.error}; remove them first (nothing written)`);
        }
      }
      current = live.copy;
    } else if (live.timestamp !== head?.timestamp) {
      console.log(
        `KV's copy is not ${head?.id}; publishing on top of ${head?.id} as the history holds it`,
      );
    }
    const outcome = await publishCopy(stores, {
      base: head?.seq ?? null,
      copy: nextCopy({ current, files: overrides, remove }),
      ...cliPublishing(note),
    });
    if (outcome.kind === 'invalid') {
      return fail(
        `${outcome.errors.map((e) => `${e.path.replace(/^copy\./, '')}: ${e.message}`).join('\n')}\nnothing written`,
      );
    }
    if (outcome.kind === 'conflict') {
      return fail(`${outcome.head.id} was published meanwhile; nothing written, try again`);
    }
    if (outcome.kind !== 'published') return fail(gateRefusalText(outcome));
    const { version, copy } = outcome;
    for (const language of Object.keys(copy)) {
      const key = TRANSLATION_KEYS.dictionary(language, version.timestamp);
      console.log(
        `wrote ${language} (${keyCount(Object.keys(copy[language]!).length)}) to "${key}"`,
      );
    }
    console.log(
      `published ${version.id}: manifest → timestamp ${version.timestamp}, languages: ${Object.keys(copy).join(', ') || 'none'}`,
    );
    if (options.remote) {
      console.log('Edge locations pick the change up within about a minute (KV caching).');
    }
    return EXIT_OK;
  });
}

function keyCount(keys: number): string {
  return keys === 1 ? '1 key' : `${keys} keys`;
}

async function run(command: Command, options: CliOptions): Promise<number> {
  switch (command.name) {
    case 'get':
      return get(options);
    case 'validate':
      return validate(command.files);
    case 'publish': {
      const checked = await checkFiles(command.files);
      if (!checked.ok) return fail(`${checked.error}\nnothing written`);
      return publish(checked.value, [], options, `publish ${command.files.join(' ')}`);
    }
    case 'remove':
      return publish([], command.languages, options, `remove ${command.languages.join(' ')}`);
  }
}

/** The CLI on `args`, as `npm run translations -- <args>` runs it: its exit code. */
export function runTranslationsCli(args: readonly string[]): Promise<number> {
  return runTool(args, { usage: USAGE, parseArgs: parseCliArgs, run });
}
