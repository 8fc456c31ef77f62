import { describe, expect, it } from 'vitest';
import { longestFirst } from '../../scripts/longest-first';

/** A file as the order sees it: its project, that project's group, and its seconds if known. */
function file(
  name: string,
  where: { project: string; group: number; isolate?: boolean },
  seconds?: number,
) {
  const { project, group, isolate = false } = where;
  return {
    name,
    seconds,
    project: { name: project, config: { isolate, sequence: { groupOrder: group } } },
  };
}

const order = (files: ReturnType<typeof file>[]) =>
  longestFirst(files, (each) => each.seconds).map((each) => each.name);

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
});
