import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { BUNDLED_TRANSLATIONS, type Dictionary } from '../../../locales';

/**
 * Islands get their strings as props; no dictionary, and no i18next, may reach the browser
 * (the brief; ARCHITECTURE.md islands protocol). Reads the browser build that `npm test` makes
 * first (`npm run build` → dist/client) rather than building it a second time.
 */

const CLIENT_BUILD = 'dist/client';
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

beforeAll(async () => {
  const files = (await filesUnder(CLIENT_BUILD).catch(() => [])).filter((f) =>
    /\.(m?js|json)$/.test(f),
  );
  if (files.length === 0) throw new Error(`no browser build in ${CLIENT_BUILD}: npm run build`);
  scripts = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n').toLowerCase();
});

it('the browser bundle was built', () => {
  expect(scripts).toContain('hydrate');
});

it('ships no sentence of any language to the browser', () => {
  const sentences = Object.values(BUNDLED_TRANSLATIONS)
    .flatMap(texts)
    .filter((text) => text.length >= 20 && !text.includes('{{'));
  expect(sentences.length).toBeGreaterThan(100);
  const shipped = sentences.filter(
    (text) => scripts.includes(text.toLowerCase()) || scripts.includes(escaped(text).toLowerCase()),
  );
  expect(shipped).toEqual([]);
});

it('ships no i18next to the browser', () => {
  expect(scripts).not.toContain('i18next');
});

it('ships no full zod to the browser: the worker checks answers, islands use zod/mini', () => {
  // A method only zod classic defines; zod/mini's functional API has none.
  expect(scripts).not.toContain('superrefine');
});
