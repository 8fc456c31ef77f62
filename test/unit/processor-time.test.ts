import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  machineBusySeconds,
  parseStat,
  secondsBetween,
  treeSeconds,
} from '../../scripts/processor-time';
import { processorLines } from '../../scripts/suite-budget';

/**
 * The processor time the summary of `npm test` reports (scripts/processor-time.ts,
 * test/summary-reporter.ts): read from /proc, by kind of process, and the lines that name the
 * browser files that cost the cores the most.
 */

describe('processor time from /proc', () => {
  it('reads a stat line whose name holds spaces and brackets', () => {
    // pid (comm) state ppid … utime stime cutime cstime …, as proc(5) numbers them.
    const line =
      '4242 (chromium (x) y) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 30 20 20 0 12 0';
    expect(parseStat(line)).toEqual({ parent: 17, name: 'chromium (x) y', own: 300, children: 50 });
  });

  // slow: waits for a child to burn 0.3 processor-seconds, which it gets at npm test's yielding
  // priority (scripts/test-parts.ts) only as the browser files leave the cores
  it('counts a child that burns the processor under its kind while it runs, and as ended after', async () => {
    const before = treeSeconds();
    expect(before).toBeDefined();
    // 0.3 processor-seconds of work in a child node, counted by its own processor time (a busy
    // machine gives a loop timed by the clock less), which says so and then idles until stopped.
    // Waiting for its word, not for the tree's figure: the unit files share this process, and a
    // child another file spawned meanwhile counts under the same kind.
    const child = spawn(process.execPath, [
      '-e',
      'while (process.cpuUsage().user < 300_000); console.log("burnt"); setInterval(() => {}, 1000);',
    ]);
    const ended = new Promise((done) => child.on('exit', done));
    try {
      await new Promise((burnt) => child.stdout.once('data', burnt));
      const running = secondsBetween(before!, treeSeconds()!);
      expect(running.other + running.ended).toBeGreaterThanOrEqual(0.28);
      expect(running.chromium).toBe(0);
      expect(running.workerd).toBe(0);
      child.kill();
      await ended;
      // Waited for by this process: its time moved from its kind to the ended children's, whole.
      const after = secondsBetween(before!, treeSeconds()!);
      expect(after.ended - running.ended).toBeGreaterThanOrEqual(0.28);
    } finally {
      child.kill();
    }
  });

  it('reads the machine’s busy seconds, which only grow', async () => {
    const first = machineBusySeconds()!;
    const end = Date.now() + 100;
    while (Date.now() < end);
    expect(machineBusySeconds()!).toBeGreaterThan(first);
  });
});

describe('the summary’s processor lines', () => {
  const seconds = (chromium: number, workerd: number, test: number) => ({
    chromium,
    workerd,
    test,
    other: 0,
    ended: 0,
  });

  it('says the run’s busy seconds beside what two cores hold, and the costliest files first', () => {
    expect(
      processorLines({
        busySeconds: 2345.4,
        files: [
          { file: 'test/browser/a.test.ts', seconds: seconds(10, 1, 2) },
          { file: 'test/browser/walk.test.ts', seconds: seconds(220.5, 12.04, 25.4) },
          { file: 'test/browser/b.test.ts', seconds: seconds(1, 0, 0.5) },
        ],
        shown: 2,
      }),
    ).toEqual([
      'The cores were busy 2345 processor-seconds during the run, whatever ran (2 cores for 600 s hold 1200).',
      'The browser files cost 272 processor-seconds; the costliest (Chromium, workerd, the test process, other, ended):',
      '    257.9 s  test/browser/walk.test.ts (220.5, 12.0, 25.4, 0.0, 0.0)',
      '     13.0 s  test/browser/a.test.ts (10.0, 1.0, 2.0, 0.0, 0.0)',
    ]);
  });

  it('says nothing it could not read', () => {
    expect(processorLines({ busySeconds: undefined, files: [], shown: 10 })).toEqual([]);
  });
});
