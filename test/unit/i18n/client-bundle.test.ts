import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUNDLED_TRANSLATIONS, type Dictionary } from '../../../locales';

/**
 * Islands get their strings as props; no dictionary, and no i18next, may reach the browser
 * (the brief; ARCHITECTURE.md islands protocol). Built here into a folder of its own, so the
 * shared dist/ is neither needed nor disturbed.
 */

const run = promisify(execFile);
let outDir = '';
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
  outDir = await mkdtemp(join(tmpdir(), 'gf-client-'));
  await run(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--logLevel', 'error'],
    { cwd: process.cwd() },
  );
  const files = (await filesUnder(outDir)).filter((f) => /\.(m?js|json)$/.test(f));
  scripts = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n').toLowerCase();
}, 120_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
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
