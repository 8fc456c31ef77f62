import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  runScript,
  type Started,
  sideBySideReport,
  thenBeside,
} from '../../scripts/run-side-by-side';

/** Every script's outcome, in the order given, the scripts running at once. */
const sideBySide = (scripts: readonly string[], cwd: string) =>
  Promise.all(scripts.map((script) => runScript(script, cwd)));

/**
 * `npm test` builds and checks side by side: a check that fails must fail `npm test`, whatever
 * the build did, and each script's output must reach the reader whole.
 */

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'side-by-side-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'side-by-side-fixture',
      private: true,
      scripts: {
        slow: "node -e \"setTimeout(() => { console.log('slow 1'); console.log('slow 2') }, 300)\"",
        fails: "node -e \"console.log('fails out'); console.error('fails err'); process.exit(3)\"",
        ok: 'node -e "0"',
        slower: 'node -e "setTimeout(() => console.log(\'checked\'), 1500)"',
        priority: 'node -e "console.log(require(\'node:os\').getPriority())"',
        'fails-later':
          'node -e "setTimeout(() => { console.log(\'late\'); process.exit(4) }, 300)"',
      },
    }),
  );
});

describe('npm scripts side by side (npm test: build and check)', () => {
  it('runs them at once and gives each output whole, in the order asked', async () => {
    const started = performance.now();
    const outcomes = await sideBySide(['slow', 'slow'], project);
    expect(outcomes.map(({ script, code, output }) => ({ script, code, output }))).toEqual([
      { script: 'slow', code: 0, output: 'slow 1\nslow 2\n' },
      { script: 'slow', code: 0, output: 'slow 1\nslow 2\n' },
    ]);
    // One after the other, the run would take the two durations added up; at once, it saves at
    // least the shorter one, which holds a 300 ms wait.
    const [first, second] = outcomes.map(({ seconds }) => seconds) as [number, number];
    const elapsed = (performance.now() - started) / 1000;
    expect(elapsed).toBeLessThan(first + second - 0.2);
    const { text, failed } = sideBySideReport(outcomes);
    expect(failed).toEqual([]);
    expect(text).toMatch(
      /^\n── npm run slow: passed in \d+\.\d s\nslow 1\nslow 2\n\n── npm run slow: passed in \d+\.\d s\nslow 1\nslow 2\n$/,
    );
  });

  it('a script that fails fails the whole, named, with what it printed', async () => {
    const outcomes = await sideBySide(['slow', 'fails'], project);
    expect(outcomes.map(({ code }) => code)).toEqual([0, 3]);
    const { text, failed } = sideBySideReport(outcomes);
    expect(failed).toEqual(['fails']);
    expect(text).toContain('── npm run fails: failed (exit 3)');
    expect(text).toContain('fails out\n');
    expect(text).toContain('fails err\n');
    expect(text.endsWith('\nnpm run fails failed\n')).toBe(true);
  });

  it('a script that does not exist fails too', async () => {
    const [outcome] = await sideBySide(['no-such-script'], project);
    expect(outcome?.code).not.toBe(0);
    expect(sideBySideReport([outcome!]).failed).toEqual(['no-such-script']);
  });
});

/** A process that runs until stopped (or 20 s), ending with `code` if left alone. */
function waiting(
  code: number,
): Started & { stopped: () => boolean; endedBy: Promise<NodeJS.Signals | null> } {
  const child = spawn(process.execPath, ['-e', `setTimeout(() => process.exit(${code}), 20000)`]);
  let stopped = false;
  const closed = new Promise<{ exit: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (exit, signal) => resolve({ exit, signal })),
  );
  return {
    exit: closed.then(({ exit }) => exit ?? 1),
    stop() {
      stopped = true;
      child.kill('SIGTERM');
    },
    stopped: () => stopped,
    // The signal that ended it, or null where it ended by itself, its 20 s over.
    endedBy: closed.then(({ signal }) => signal),
  };
}

/** A command that ends at once with `code`. */
function quick(code: number): Started {
  return { exit: Promise.resolve(code), stop() {} };
}

/**
 * The check runs at the lowest priority (`nice -n 19`): on cores that processes at normal priority
 * keep busy it waits its turn, and its npm and node took over 30 s to start and end with two busy
 * loops beside the suite. The tests that wait for the check to end have that long.
 */
const CHECK_STARVED_MS = 120_000;

describe('npm test: the tests once the build passed, the check beside them', {
  timeout: CHECK_STARVED_MS,
}, () => {
  it('starts the tests while the check still runs, and answers their code when it passes', async () => {
    const written: string[] = [];
    let testsStartedAt = 0;
    const code = await thenBeside(
      'ok',
      'slower',
      () => {
        testsStartedAt = performance.now();
        return quick(7);
      },
      (text) => written.push(text),
      project,
    );
    // The check holds a 1.5 s wait: the tests started well before it ended.
    expect(performance.now() - testsStartedAt).toBeGreaterThan(800);
    expect(code).toBe(7);
    expect(written).toHaveLength(2);
    expect(written[1]).toMatch(/^\n── npm run slower: passed in \d+\.\d s\nchecked\n$/);
  });

  it('runs the check at the lowest priority, the build and the tests at their own', async () => {
    const written: string[] = [];
    const code = await thenBeside(
      'priority',
      'priority',
      () => quick(0),
      (text) => written.push(text),
      project,
    );
    expect(code).toBe(0);
    // The build's first, at the priority npm test itself has; then the check's, the lowest.
    const printed = written.map((text) => text.match(/s\n(-?\d+)\n$/)?.[1]);
    expect(printed).toEqual([String(getPriority()), '19']);
  });

  it('stops the tests at once when the check fails, and fails the run', async () => {
    const written: string[] = [];
    const tests = waiting(0);
    const code = await thenBeside(
      'slow',
      'fails-later',
      () => tests,
      (text) => written.push(text),
      project,
    );
    expect(code).toBe(1);
    expect(tests.stopped()).toBe(true);
    // Ended by the stop, not by running its 20 s out: whatever the machine's load, no clock.
    expect(await tests.endedBy).toBe('SIGTERM');
    expect(written.join('')).toContain('── npm run fails-later: failed (exit 4)');
    expect(written.at(-1)).toBe('\nnpm run fails-later failed: the tests were stopped\n');
  });

  it('starts no test when the build fails, and says how the check went', async () => {
    let testsStarted = false;
    const written: string[] = [];
    const code = await thenBeside(
      'fails',
      'slow',
      () => {
        testsStarted = true;
        return quick(0);
      },
      (text) => written.push(text),
      project,
    );
    expect(code).toBe(1);
    expect(testsStarted).toBe(false);
    expect(written.join('')).toContain('── npm run fails: failed (exit 3)');
    expect(written.join('')).toContain('── npm run slow: passed');
  });
});
