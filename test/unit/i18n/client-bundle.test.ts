import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ALL_TRANSLATIONS } from '../../../locales/all';
import type { Dictionary } from '../../../shared/config/translations';
import { CONSOLE_OPENAPI_PATH } from '../../../shared/console-api/openapi';

/**
 * Islands get their strings as props; no dictionary, and no i18next, may reach the browser
 * (the brief; ARCHITECTURE.md islands protocol). Reads the browser build that `npm test` makes
 * first (`npm run build` → dist/client) rather than building it a second time: every file a
 * funnel page can load, i.e. all but what only the marketers' console (console/, English by
 * design) loads. The dictionaries the build writes for the worker (dist/client/i18n/, read
 * through its ASSETS binding: worker/translations/source.ts) are static files no page
 * loads, which the last test holds the scripts to.
 */

const CLIENT_BUILD = 'dist/client';
/**
 * The console API's description (scripts/console-openapi.ts): a static file no page loads, read
 * by the console's route behind Access; its answers' descriptions quote the texts they carry.
 */
const CONSOLE_OPENAPI_FILE = join(CLIENT_BUILD, CONSOLE_OPENAPI_PATH.slice(1));
/** The worker's dictionaries among the static files (scripts/shipped-text-assets.ts). */
const DICTIONARIES = join(CLIENT_BUILD, 'i18n');
let scripts = '';

function texts(dictionary: Dictionary): string[] {
  return Object.values(dictionary).flatMap((v) => (typeof v === 'string' ? [v] : texts(v)));
}

/** esbuild writes non-ASCII characters as \uXXXX escapes. */
function escaped(text: string): string {
  return text.replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }>;

/** The built files only the console's entry reaches (none of the funnel's entries does). */
async function consoleOnlyFiles(): Promise<Set<string>> {
  const manifest = JSON.parse(
    await readFile(join(CLIENT_BUILD, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const reach = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const next of [
        ...(manifest[key]?.imports ?? []),
        ...(manifest[key]?.dynamicImports ?? []),
      ])
        visit(next);
    };
    keys.forEach(visit);
    return new Set([...seen].map((key) => join(CLIENT_BUILD, manifest[key]!.file)));
  };
  const entries = Object.keys(manifest).filter((key) => !key.startsWith('_'));
  const funnel = reach(entries.filter((key) => !key.startsWith('console/')));
  const console = reach(entries.filter((key) => key.startsWith('console/')));
  return new Set([...console].filter((file) => !funnel.has(file)));
}

beforeAll(async () => {
  const consoleOnly = await consoleOnlyFiles().catch(() => new Set<string>());
  const files = (await filesUnder(CLIENT_BUILD).catch(() => [])).filter(
    (f) =>
      /\.(m?js|json)$/.test(f) &&
      !consoleOnly.has(f) &&
      !f.endsWith('manifest.json') &&
      !f.startsWith(`${DICTIONARIES}/`) &&
      f !== CONSOLE_OPENAPI_FILE,
  );
  if (files.length === 0) throw new Error(`no browser build in ${CLIENT_BUILD}: npm run build`);
  scripts = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n').toLowerCase();
});

it('the browser bundle was built', () => {
  expect(scripts).toContain('hydrate');
});

it('ships no sentence of any language to the browser', () => {
  const sentences = Object.values(ALL_TRANSLATIONS)
    .flatMap(texts)
    .filter((text) => text.length >= 20 && !text.includes('{{'));
  expect(sentences.length).toBeGreaterThan(100);
  const shipped = sentences.filter(
    (text) => scripts.includes(text.toLowerCase()) || scripts.includes(escaped(text).toLowerCase()),
  );
  expect(shipped).toEqual([]);
});

it("names none of the worker's dictionaries, so no page loads one", async () => {
  expect((await readdir(DICTIONARIES)).sort()).toEqual(
    ['ar', 'de', 'es', 'fr', 'pt', 'ru'].map((language) => `${language}.json`),
  );
  for (const file of await readdir(DICTIONARIES)) expect(scripts).not.toContain(`/i18n/${file}`);
});

it('ships no i18next to the browser', () => {
  expect(scripts).not.toContain('i18next');
});

it('ships no full zod to the browser: the worker checks answers, islands use zod/mini', () => {
  // A method only zod classic defines; zod/mini's functional API has none.
  expect(scripts).not.toContain('superrefine');
});
