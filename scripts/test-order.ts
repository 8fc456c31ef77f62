import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDED_SECONDS, type RecordedSeconds } from './longest-first';

/**
 * `npm run test:order`: records each test file's seconds from Vitest's cache of this clone's last
 * runs into test/file-seconds.json, the order a fresh clone's `npm test` starts its files in
 * (scripts/longest-first.ts). Run it after a full `npm test` on an idle machine when files were
 * added or their times moved a lot; a stale record only orders files less well.
 */

const CACHE = 'node_modules/.vite/vitest';

interface VitestResults {
  results: [string, { duration: number; failed: boolean }][];
}

/** The newest results.json under Vitest's cache directory, or why there is none. */
function newestResults(): string {
  let dirs: string[] = [];
  try {
    dirs = readdirSync(CACHE);
  } catch {
    // No cache yet: said below.
  }
  const found = dirs
    .map((dir) => join(CACHE, dir, 'results.json'))
    .filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!found[0]) {
    console.error(`No ${CACHE}/*/results.json: run npm test first.`);
    process.exit(1);
  }
  return found[0];
}

const source = newestResults();
const { results } = JSON.parse(readFileSync(source, 'utf8')) as VitestResults;
const recorded: RecordedSeconds = Object.fromEntries(
  results
    .filter(([, result]) => !result.failed)
    .map(([key, result]) => [key, Math.round(result.duration / 100) / 10] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(RECORDED_SECONDS, `${JSON.stringify(recorded, null, 2)}\n`);
console.log(`${RECORDED_SECONDS}: ${Object.keys(recorded).length} files, from ${source}`);
