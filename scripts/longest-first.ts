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

/** The record, or none (every file then new) when it is missing or cannot be read, which it says. */
function readRecorded(): RecordedSeconds {
  let text: string;
  try {
    text = readFileSync(RECORDED_SECONDS, 'utf8');
  } catch {
    return {};
  }
  try {
    return JSON.parse(text) as RecordedSeconds;
  } catch (error) {
    console.warn(
      `${RECORDED_SECONDS} is not JSON (${String(error)}): npm run test:order writes it`,
    );
    return {};
  }
}

/**
 * The order files start in: group by group (sequence.groupOrder), each group's projects one after
 * the other as in Vitest's own order (a pool worker that moves to another project starts afresh,
 * its modules loaded again: with the unit group's three projects interleaved it took 325 s
 * instead of 130), the projects that give each file a process or workerd of its own first,
 * within a project its files environment by environment (environmentOf, below: the unit project
 * took 61 s and 109 CPU-seconds instead of 92 s and 168), and within that the longest files
 * first, so the group's last minute holds its shortest files and every slot of the pool stays
 * busy to the end (but IN_VITEST_ORDER's, below, where only MOSTLY_WAITING's move). On a fresh
 * clone Vitest's own order, which has no timings there, puts the largest files first: the worker
 * group's 35 s file started in its last minute, and the real queue's file, which waits 5 s on
 * its batch, ran after every browser file, on cores left idle.
 *
 * A file's seconds come from Vitest's cache of this clone's last run, else from the record (a
 * fresh clone), else it is new: new files start first, as in Vitest's own order, so a new slow
 * file never ends a group.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = readRecorded();
    const { root } = this.ctx.config;
    // Vitest's own order first: the sort below is stable, so files it gives no seconds keep it.
    return longestFirst(
      await super.sort(files),
      (spec) => {
        if (IN_VITEST_ORDER.has(spec.project.name)) return undefined;
        const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
        const cached = this.ctx.cache.getFileTestResults(key);
        return cached ? cached.duration / 1000 : recorded[key];
      },
      (spec) => environmentOf(spec.moduleId, spec.project.config.environment),
      (spec) => MOSTLY_WAITING.has(relative(root, spec.moduleId)),
    );
  }
}

/**
 * Files that spend most of their time waiting on the product's clocks, not working: they start
 * first in their project, beside its longest files and `npm test`'s check, rather than last,
 * alone on cores they leave idle. In Vitest's order these two ended the browser project and kept
 * the machine 4-30% busy for its last 15-20 s in fresh-clone runs; alone each uses about 0.2
 * CPU-seconds a second.
 */
const MOSTLY_WAITING = new Set([
  // A portal call failing 3 s at a time, then 15 s for the worker's queue to settle. It starts a
  // built worker of its own and no browser.
  'test/load/fault-injection.test.ts',
  // A provider failing every charge until the worker's 8 s deadline offers the other one. The
  // fault it switches on in the portal is switched off after it, and the next file's kept worker
  // is emptied first (built-worker-reset.test.ts).
  'test/browser/checkout-failover.test.ts',
]);

/** A file's own `@vitest-environment` docblock, as Vitest reads it, else its project's. */
const DOCBLOCK_ENVIRONMENT = /@(?:vitest|jest)-environment\s+([\w-]+)/;

/**
 * The environment a file runs in. A pool worker runs the next file only in the environment it
 * was made for, so a project whose node and happy-dom files alternate makes a worker, and loads
 * React, happy-dom and the rest again, at every change: 61 threads for the unit project's 273
 * files, each loading its modules, where its files of one environment side by side need four.
 */
export function environmentOf(path: string, projectEnvironment: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return projectEnvironment;
  }
  return DOCBLOCK_ENVIRONMENT.exec(text)?.[1] ?? projectEnvironment;
}

/**
 * Projects whose files keep Vitest's own order. The browser files, longest first, failed in three
 * of four fresh-clone runs where Vitest's order had passed every run: each time one test
 * process's pages stopped loading for minutes (a signup that never reached the checkout, a
 * beacon never received, `page.goto` and then a next file's set-up timing out), an
 * order-dependent fault not found yet. The order is worth little there: the browser group's wall
 * over its files' seconds / 3 was 1.03 in three longest-first runs and 1.045-1.05 in three in
 * Vitest's order, about 8 s (an earlier 408 to 372 s was two runs' noise).
 */
const IN_VITEST_ORDER = new Set(['browser']);

/** What the order needs of a file: its project (its seconds come from `secondsOf`). */
interface Sortable {
  project: { name: string; config: { isolate: boolean; sequence: { groupOrder: number } } };
}

/**
 * `files` group by group; in a group, project by project, the isolated ones first; in a project,
 * those that mostly wait (`waits`) first, then environment by environment (`environmentOf`), the
 * one with the longest file first; in an environment, the unknown (new) files first, then the
 * longest.
 */
export function longestFirst<File extends Sortable>(
  files: readonly File[],
  secondsOf: (file: File) => number | undefined,
  environmentOf: (file: File) => string = () => '',
  waits: (file: File) => boolean = () => false,
): File[] {
  const group = (file: File) => file.project.config.sequence.groupOrder;
  const shared = (file: File) => (file.project.config.isolate ? 0 : 1);
  const byName = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
  const timed = files.map((file) => ({
    file,
    waiting: waits(file) ? 0 : 1,
    environment: `${file.project.name} ${environmentOf(file)}`,
    seconds: secondsOf(file) ?? Number.POSITIVE_INFINITY,
  }));
  // Each environment of a project by its longest file: the longest files of the project still
  // start first, and its last minute still holds short ones.
  const longestIn = new Map<string, number>();
  for (const { environment, seconds } of timed) {
    longestIn.set(environment, Math.max(longestIn.get(environment) ?? 0, seconds));
  }
  return timed
    .sort(
      (a, b) =>
        group(a.file) - group(b.file) ||
        shared(a.file) - shared(b.file) ||
        byName(a.file.project.name, b.file.project.name) ||
        a.waiting - b.waiting ||
        compareLongest(longestIn.get(a.environment)!, longestIn.get(b.environment)!) ||
        byName(a.environment, b.environment) ||
        compareLongest(a.seconds, b.seconds),
    )
    .map(({ file }) => file);
}

/** Longer first; two unknown (infinite) lengths are equal, where subtracting gives NaN. */
const compareLongest = (a: number, b: number) => (a === b ? 0 : b - a);
