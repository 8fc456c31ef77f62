import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentOf, longestFirst } from '../../scripts/longest-first';

/**
 * A file as the order sees it: its project, that project's group, its seconds if known and the
 * environment it runs in.
 */
function file(
  name: string,
  where: { project: string; group: number; isolate?: boolean },
  seconds?: number,
  environment = 'node',
) {
  const { project, group, isolate = false } = where;
  return {
    name,
    seconds,
    environment,
    project: { name: project, config: { isolate, sequence: { groupOrder: group } } },
  };
}

const order = (files: ReturnType<typeof file>[], waiting: string[] = []) =>
  longestFirst(
    files,
    (each) => each.seconds,
    (each) => each.environment,
    (each) => waiting.includes(each.name),
  ).map((each) => each.name);

const BROWSER = { project: 'browser', group: 0 };
const APART = { project: 'worker-apart', group: 0, isolate: true };
const UNIT = { project: 'unit', group: 1 };
const CLI = { project: 'cli', group: 1, isolate: true };
const WORKER = { project: 'worker', group: 2 };

describe('the order test files start in (scripts/longest-first.ts)', () => {
  it('runs group by group, project by project, the longest files of a project first', () => {
    expect(
      order([
        file('unit short', UNIT, 0.1),
        file('flows walk', BROWSER, 37),
        file('development build', APART, 0.6),
        file('worker', WORKER, 30),
        file('unit long', UNIT, 12),
        file('real queue', APART, 5),
        file('console pointer', BROWSER, 120),
        file('smoke', CLI, 2),
      ]),
    ).toEqual([
      // The isolated project first in its group: its files wait while the others work.
      'real queue',
      'development build',
      'console pointer',
      'flows walk',
      'smoke',
      'unit long',
      'unit short',
      'worker',
    ]);
  });

  it('starts a file it has no seconds for first in its project, never last', () => {
    expect(
      order([
        file('known', BROWSER, 50),
        file('new', BROWSER),
        file('other new', BROWSER),
        file('next group', UNIT),
      ]),
    ).toEqual(['new', 'other new', 'known', 'next group']);
  });

  it('runs a project environment by environment, the one with the longest file first', () => {
    // A pool worker runs files of one environment only: alternating, it would be made again,
    // its modules loaded again, at every file.
    expect(
      order([
        file('store', UNIT, 3),
        file('console ui', UNIT, 10, 'happy-dom'),
        file('simulation', UNIT, 5),
        file('form', UNIT, 1, 'happy-dom'),
        file('schema', UNIT, 0.2),
        file('next group', WORKER, 1),
      ]),
    ).toEqual(['console ui', 'form', 'simulation', 'store', 'schema', 'next group']);
  });
});

describe('a file that mostly waits', () => {
  it('starts first in its project, whatever its seconds, and never leaves its group', () => {
    expect(
      order(
        [
          file('console pointer', BROWSER, 120),
          file('every screen', BROWSER),
          file('fault injection', BROWSER, 18),
          file('next group', UNIT, 1),
        ],
        ['fault injection'],
      ),
    ).toEqual(['fault injection', 'every screen', 'console pointer', 'next group']);
  });
});

describe('the environment a file runs in', () => {
  it("is its docblock's, else its project's", () => {
    const folder = mkdtempSync(join(tmpdir(), 'environment-'));
    try {
      const dom = join(folder, 'dom.test.tsx');
      writeFileSync(dom, "// @vitest-environment happy-dom\nimport { it } from 'vitest';\n");
      const plain = join(folder, 'plain.test.ts');
      writeFileSync(plain, "import { it } from 'vitest';\n");
      expect(environmentOf(dom, 'node')).toBe('happy-dom');
      expect(environmentOf(plain, 'node')).toBe('node');
      expect(environmentOf(join(folder, 'gone.test.ts'), 'node')).toBe('node');
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});
