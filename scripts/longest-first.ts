import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each test file's seconds in the last recorded full run, by `project:path` as Vitest keys its
 * own results cache: what a fresh clone, whose cache is empty, orders its files by
 * (`npm run test:order` writes it, docs/testing.md).
 */
export const RECORDED_SECONDS = 'test/file-seconds.json';

export type RecordedSeconds = Record<string, number>;

function readRecorded(): RecordedSeconds {
  try {
    return JSON.parse(readFileSync(RECORDED_SECONDS, 'utf8')) as RecordedSeconds;
  } catch {
    return {};
  }
}

/**
 * The order files start in: group by group (sequence.groupOrder), and within a group the longest
 * first, whichever project they belong to, so the group's last minutes hold its shortest files
 * and every slot of the pool stays busy to the end. Vitest's own order keeps each project's files
 * together and, on a fresh clone, puts the largest files first: there the 37 s walk of every flow
 * (a small file) started in the browser group's last minute and ran on alone, and the queue's
 * file that waits 5 s on its batch ran after every browser file, on cores left idle.
 *
 * A file's seconds come from Vitest's cache of this clone's last run, else from the record (a
 * fresh clone), else it is new: new files start first, as in Vitest's own order, so a new slow
 * file never ends a group.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = readRecorded();
    const { root } = this.ctx.config;
    return longestFirst(files, (spec) => {
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      return cached ? cached.duration / 1000 : recorded[key];
    });
  }
}

/** What the order needs of a file: its group (its seconds come from `secondsOf`). */
interface Sortable {
  project: { config: { sequence: { groupOrder: number } } };
}

/** `files` group by group, within each the unknown (new) files first, then the longest. */
export function longestFirst<File extends Sortable>(
  files: readonly File[],
  secondsOf: (file: File) => number | undefined,
): File[] {
  const group = (file: File) => file.project.config.sequence.groupOrder;
  return files
    .map((file) => ({ file, seconds: secondsOf(file) ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => group(a.file) - group(b.file) || compareLongest(a.seconds, b.seconds))
    .map(({ file }) => file);
}

/** Longer first; two unknown (infinite) lengths are equal, where subtracting gives NaN. */
const compareLongest = (a: number, b: number) => (a === b ? 0 : b - a);
