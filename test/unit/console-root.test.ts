import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleRootFiles, looseConsoleFiles } from '../../scripts/console-root';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe("nothing at the console's root but its entry (npm run check)", () => {
  const planted: string[] = [];
  afterEach(() => {
    for (const dir of planted.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A repository holding only `console/` with these files (a name ending in / is a folder). */
  function plantedRepository(entries: readonly string[]): string {
    const root = mkdtempSync(join(tmpdir(), 'console-root-'));
    planted.push(root);
    for (const entry of entries) {
      const path = join(root, 'console', entry);
      if (entry.endsWith('/')) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, '');
      }
    }
    return root;
  }

  it('holds for the console as it is now', () => {
    expect(looseConsoleFiles(consoleRootFiles(ROOT))).toEqual([]);
  });

  it('refuses a file planted beside the entry, whatever it holds, and names it', () => {
    const root = plantedRepository([
      'main.tsx',
      'time-text.ts',
      'console.css',
      'kit/',
      'traffic/Traffic.tsx',
    ]);
    expect(looseConsoleFiles(consoleRootFiles(root))).toEqual(['console.css', 'time-text.ts']);
  });

  it('lets the entry, the area folders and the files inside them pass', () => {
    const root = plantedRepository([
      'main.tsx',
      'kit/time-text.ts',
      'results/Results.tsx',
      'page/',
    ]);
    expect(looseConsoleFiles(consoleRootFiles(root))).toEqual([]);
  });
});
