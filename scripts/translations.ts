import { readFile } from 'node:fs/promises';
import { TRANSLATION_KEYS } from '../worker/translations/source';
import { EXIT_OK, fail, runTool } from './cli';
import { type KvStore, withStore } from './kv-store';
import {
  type CheckedOverride,
  type CliOptions,
  type Command,
  checkOverride,
  languageOfFile,
  manifestFromKv,
  parseCliArgs,
  planPublish,
  type Result,
  USAGE,
} from './translations-document';

/**
 * The copy CLI: `npm run translations -- get | validate <files> | publish <files> | remove
 * <langs>`. Decisions live in `translations-document.ts`; this file reads files, talks to KV
 * (local through wrangler's platform proxy, remote through the wrangler CLI; both in
 * `kv-store.ts`) and prints.
 */

/** SPEC.md §9: at most 10 translation reads (and here writes) at once. */
const PARALLEL = 10;

/** Runs `task` on every item, at most PARALLEL at a time. */
async function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>) {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL) {
    results.push(...(await Promise.all(items.slice(i, i + PARALLEL).map(task))));
  }
  return results;
}

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
  return withStore(options, async (store) => {
    const manifest = await readManifest(store);
    if (!manifest.ok) return fail(manifest.error);
    if (!manifest.value) {
      console.log(`${store.label}: no manifest; every page uses the bundled text`);
      return EXIT_OK;
    }
    const { timestamp, languages } = manifest.value;
    console.log(`${store.label}: manifest timestamp ${timestamp}`);
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

async function publish(
  overrides: readonly CheckedOverride[],
  remove: readonly string[],
  options: CliOptions,
): Promise<number> {
  return withStore(options, async (store) => {
    const current = await readManifest(store);
    if (!current.ok) return fail(`${current.error}; nothing written`);
    const plan = planPublish({
      current: current.value,
      files: overrides.map((o) => o.language),
      remove,
      nowSeconds: Date.now() / 1000,
    });
    const fromFile = new Map(overrides.map((o) => [o.language, JSON.stringify(o.dictionary)]));
    const values = await inBatches(plan.writes, async (write) => {
      if (write.from === 'file') return fromFile.get(write.language)!;
      const old = TRANSLATION_KEYS.dictionary(write.language, current.value!.timestamp);
      return store.read(old);
    });
    const lost = plan.writes.filter((_, i) => values[i] === null).map((w) => w.language);
    if (lost.length) {
      return fail(
        `the overrides of ${lost.join(', ')} named by the manifest are missing in KV; remove them first`,
      );
    }
    const stored = plan.writes.map((write, i) => ({ ...write, value: values[i]! }));
    await inBatches(stored, async (write) => {
      await store.write(write.key, write.value);
      console.log(`wrote ${write.language} (${write.from}) to "${write.key}"`);
    });
    await store.write(TRANSLATION_KEYS.manifest, JSON.stringify(plan.manifest));
    console.log(
      `manifest → timestamp ${plan.manifest.timestamp}, languages: ${plan.manifest.languages.join(', ') || 'none'}`,
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
      return publish(checked.value, [], options);
    }
    case 'remove':
      return publish([], command.languages, options);
  }
}

process.exitCode = await runTool(process.argv.slice(2), {
  usage: USAGE,
  parseArgs: parseCliArgs,
  run,
});
