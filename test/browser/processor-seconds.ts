import { afterAll, beforeAll } from 'vitest';
import { secondsBetween, type TreeSeconds, treeSeconds } from '../../scripts/processor-time';

/**
 * The browser project's setup file: what each file cost the machine's cores, its Chromium, its
 * workerd and its own process (scripts/processor-time.ts), left in the file's meta for the summary
 * (test/summary-reporter.ts) to name the files that cost the most, whatever else shared the
 * cores with them. A file's time runs from its first hook to its last; its process's files take
 * turns (isolate: false), so no other file's work falls between.
 */

declare module 'vitest' {
  interface TaskMeta {
    /** What the file cost, by kind of process; absent where /proc cannot be read. */
    processorSeconds?: TreeSeconds;
  }
}

let atStart: TreeSeconds | undefined;
beforeAll(() => {
  atStart = treeSeconds();
});
// biome-ignore lint/correctness/noEmptyPattern: Vitest reads the fixtures a hook asks for from this pattern; this one asks for none, and the file is its second argument.
afterAll(({}, file) => {
  const atEnd = treeSeconds();
  if (atStart && atEnd) file.meta.processorSeconds = secondsBetween(atStart, atEnd);
});
