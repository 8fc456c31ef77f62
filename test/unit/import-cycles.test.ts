import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../scripts/import-boundaries';
import { CYCLE_FOLDERS, importCycles, valueImports } from '../../scripts/import-cycles';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Planted files, each given as its lines. */
function planted(files: Record<string, readonly string[]>) {
  return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
}

describe('no import cycle anywhere in the repository (npm run check)', () => {
  it('reads the tools and the tests too, not only the boundary folders', () => {
    const paths = readSources(ROOT, CYCLE_FOLDERS).map((source) => source.path);
    expect(paths).toContain('scripts/import-cycles.ts');
    expect(paths).toContain('test/unit/import-cycles.test.ts');
    expect(paths).toContain('worker/app.tsx');
  });

  it('leaves installed packages and hidden folders out (scripts/bench/ installs its own)', () => {
    const root = mkdtempSync(join(tmpdir(), 'geofunnel-sources-'));
    try {
      for (const path of [
        'scripts/a.ts',
        'scripts/bench/node_modules/p/x.ts',
        'scripts/.cache/y.ts',
      ]) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), "import './z';");
      }
      expect(readSources(root, ['scripts']).map((source) => source.path)).toEqual(['scripts/a.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a ring of value imports across folders, naming it file by file', () => {
    const cycles = importCycles(
      planted({
        'worker/config/planted.ts': ["import { rule } from '../experiments/planted';"],
        'worker/experiments/planted.ts': [
          "import { helper } from './planted-helper';",
          "export { rule } from './rules';",
        ],
        'worker/experiments/planted-helper.ts': ["import '../config/planted';"],
        'worker/experiments/rules.ts': ["import { z } from 'zod';"],
      }),
    );
    expect(cycles).toEqual([
      {
        ring: [
          'worker/config/planted.ts',
          'worker/experiments/planted.ts',
          'worker/experiments/planted-helper.ts',
          'worker/config/planted.ts',
        ],
        alsoCaught: [],
      },
    ]);
  });

  it('resolves folders by their index file and finds a module importing itself', () => {
    expect(
      importCycles(
        planted({
          'shared/plans/index.ts': ["export * from '../plans';"],
          'shared/self.ts': ["import { me } from './self.js';"],
        }),
      ).map(({ ring }) => ring),
    ).toEqual([
      ['shared/plans/index.ts', 'shared/plans/index.ts'],
      ['shared/self.ts', 'shared/self.ts'],
    ]);
  });

  it('names the shortest ring, and the other files caught in the same knot', () => {
    const cycles = importCycles(
      planted({
        'portal/a.ts': ["import { b } from './b';", "import { c } from './c';"],
        'portal/b.ts': ["import { a } from './a';"],
        'portal/c.ts': ["import { d } from './d';"],
        'portal/d.ts': ["import { a } from './a';"],
      }),
    );
    expect(cycles).toEqual([
      {
        ring: ['portal/a.ts', 'portal/b.ts', 'portal/a.ts'],
        alsoCaught: ['portal/c.ts', 'portal/d.ts'],
      },
    ]);
  });

  it('accepts a ring closed only by type-only imports or import()', () => {
    const typeOnlyBack = [
      "import type { A } from './a';",
      "import { type A, type B } from './a';",
      "export type { A } from './a';",
      "export { type A } from './a';",
      "const later = () => import('./a');",
    ];
    for (const back of typeOnlyBack) {
      const cycles = importCycles(
        planted({
          'worker/a.ts': ["import { b } from './b';"],
          'worker/b.ts': [back],
        }),
      );
      expect({ back, cycles }).toEqual({ back, cycles: [] });
    }
  });

  it('counts an import with any value specifier, a default, a namespace or a bare import', () => {
    expect(
      valueImports(
        'worker/x.ts',
        [
          "import { type A, b } from './mixed';",
          "import d from './default';",
          "import * as n from './namespace';",
          "import type * as t from './types';",
          "import './side-effect';",
          "export * from './everything';",
          "export { type T } from './type-export';",
          "import { z } from 'zod';",
        ].join('\n'),
      ),
    ).toEqual(['./mixed', './default', './namespace', './side-effect', './everything']);
  });
});
