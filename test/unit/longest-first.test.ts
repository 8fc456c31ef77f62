import { describe, expect, it } from 'vitest';
import { longestFirst } from '../../scripts/longest-first';

/** A file as the order sees it: its project's group and name, and its seconds if known. */
function file(name: string, groupOrder: number, seconds?: number) {
  return { name, seconds, project: { config: { sequence: { groupOrder } } } };
}

const order = (files: ReturnType<typeof file>[]) =>
  longestFirst(files, (each) => each.seconds).map((each) => each.name);

describe('the order test files start in (scripts/longest-first.ts)', () => {
  it('runs group by group, the longest first within each, whichever project', () => {
    expect(
      order([
        file('unit short', 1, 0.1),
        file('flows walk', 0, 37),
        file('real queue', 0, 5),
        file('unit long', 1, 12),
        file('console pointer', 0, 120),
        file('worker', 2, 30),
      ]),
    ).toEqual(['console pointer', 'flows walk', 'real queue', 'unit long', 'unit short', 'worker']);
  });

  it('starts a file it has no seconds for first in its group, never last', () => {
    expect(
      order([file('known', 0, 50), file('new', 0), file('other new', 0), file('next group', 1)]),
    ).toEqual(['new', 'other new', 'known', 'next group']);
  });
});
