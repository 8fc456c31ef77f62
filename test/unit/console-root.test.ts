import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  consoleRootFiles,
  kitFiles,
  loneKitFiles,
  looseConsoleFiles,
} from '../../scripts/console-root';
import { readSources } from '../../scripts/import-boundaries';

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

describe('console/kit/ holds only what two or more areas use (npm run check)', () => {
  /** Planted console files, each given as its lines. */
  function planted(files: Record<string, readonly string[]>) {
    return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
  }

  it('holds for the console as it is now', () => {
    expect(loneKitFiles(readSources(ROOT, ['console']), kitFiles(ROOT))).toEqual([]);
  });

  it('refuses a kit file one area alone uses, naming the area, and one only the entry uses', () => {
    const sources = planted({
      'console/main.tsx': [
        "import './kit/console.css';",
        "import { time } from './kit/time-text';",
      ],
      'console/history/History.tsx': ["import { $history } from '../kit/stores/history';"],
      'console/kit/stores/history.ts': ['export const $history = 1;'],
      'console/kit/time-text.ts': ['export const time = 1;'],
    });
    const kit = [
      'console/kit/console.css',
      'console/kit/stores/history.ts',
      'console/kit/time-text.ts',
    ];
    expect(loneKitFiles(sources, kit)).toEqual([
      { path: 'console/kit/console.css', areas: [] },
      { path: 'console/kit/stores/history.ts', areas: ['history'] },
      { path: 'console/kit/time-text.ts', areas: [] },
    ]);
  });

  it('counts the areas that use a kit file through another kit file, and type-only imports', () => {
    const sources = planted({
      'console/history/History.tsx': ["import { $history } from '../kit/stores/history';"],
      'console/split/Publish.tsx': ["import { publish } from '../kit/stores/publishing';"],
      'console/team/Notes.tsx': ["import type { Note } from '../kit/stores/notes';"],
      'console/copy/Copy.tsx': ["import { note } from '../kit/stores/notes';"],
      'console/kit/stores/publishing.ts': [
        "import { $history } from './history';",
        'export const publish = $history;',
      ],
      'console/kit/stores/history.ts': ['export const $history = 1;'],
      'console/kit/stores/notes.ts': ['export type Note = 1;', 'export const note = 1;'],
    });
    const kit = [
      'console/kit/stores/history.ts',
      'console/kit/stores/notes.ts',
      'console/kit/stores/publishing.ts',
    ];
    expect(loneKitFiles(sources, kit)).toEqual([
      { path: 'console/kit/stores/publishing.ts', areas: ['split'] },
    ]);
  });

  it('reads every file under console/kit/, its stylesheet and its folders’ files too', () => {
    const root = mkdtempSync(join(tmpdir(), 'console-kit-'));
    try {
      for (const path of [
        'kit/console.css',
        'kit/stores/atom.ts',
        'kit/api.ts',
        'split/Split.tsx',
      ]) {
        mkdirSync(join(root, 'console', path, '..'), { recursive: true });
        writeFileSync(join(root, 'console', path), '');
      }
      expect(kitFiles(root)).toEqual([
        'console/kit/api.ts',
        'console/kit/console.css',
        'console/kit/stores/atom.ts',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
