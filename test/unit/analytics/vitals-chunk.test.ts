import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The field vitals cost a page nothing before its first paint (docs/analytics.md, "Field
 * vitals"): Google's web-vitals and its caller are a chunk of their own, which boot imports
 * lazily beside the tracker's for a page sampled for them, and in no file any entry loads
 * statically. Reads the browser build (`npm run build` →
 * dist/client), as test/unit/i18n/client-bundle.test.ts does.
 */

const CLIENT_BUILD = 'dist/client';

type Manifest = Record<
  string,
  { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
>;

let manifest: Manifest;
const files = new Map<string, string>();

/** The library's own names for the entry types it observes, which minifying keeps. */
const WEB_VITALS_MARKS = ['largest-contentful-paint', 'layout-shift'];

async function text(key: string): Promise<string> {
  const file = manifest[key]!.file;
  if (!files.has(file)) files.set(file, await readFile(join(CLIENT_BUILD, file), 'utf8'));
  return files.get(file)!;
}

/** Every file an entry loads before it runs: its static imports, transitively. */
function staticClosure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  entries.forEach(visit);
  return seen;
}

beforeAll(async () => {
  manifest = JSON.parse(
    await readFile(join(CLIENT_BUILD, '.vite/manifest.json'), 'utf8').catch(() => {
      throw new Error(`no browser build in ${CLIENT_BUILD}: npm run build`);
    }),
  ) as Manifest;
});

describe('where the vitals code is built', () => {
  it('in a chunk of its own, which boot imports only lazily, as it does the tracker', async () => {
    const vitals = 'islands/analytics/vitals.ts';
    const vitalsCode = await text(vitals);
    for (const mark of WEB_VITALS_MARKS) expect(vitalsCode).toContain(mark);
    expect(manifest['islands/boot.ts']?.dynamicImports).toContain(vitals);
    expect(manifest['islands/boot.ts']?.dynamicImports).toContain('islands/analytics/tracker.ts');
  });

  it('not in the tracker chunk: a page not sampled for vitals does not fetch them', async () => {
    const trackerCode = await text('islands/analytics/tracker.ts');
    for (const mark of WEB_VITALS_MARKS) expect(trackerCode).not.toContain(mark);
  });

  it('in nothing a funnel page loads statically', async () => {
    const entries = Object.keys(manifest).filter(
      (key) => manifest[key]?.isEntry && key.startsWith('islands/'),
    );
    expect(entries).toContain('islands/boot.ts');
    const loaded = [...staticClosure(entries)];
    expect(loaded).not.toContain('islands/analytics/tracker.ts');
    for (const key of loaded) {
      const code = await text(key);
      for (const mark of WEB_VITALS_MARKS) expect(code, `${key}`).not.toContain(mark);
    }
  });
});
