import { type ChildProcess, spawn } from 'node:child_process';
import type { TestCounts } from './suite-budget';

/**
 * `npm test`'s Vitest projects as two processes at once (scripts/test.ts): the browser group
 * (the browser files and the worker files that keep a workerd of their own), whose files wait on
 * the product's clocks and pages and leave the cores idle for a fifth of their time, then the
 * CLIs; and beside them the unit and worker files, which are all work, at a lower priority
 * (`nice`), so they take those idle moments and never a core a browser file needs. One Vitest
 * cannot do this: it refuses projects of different `maxWorkers` in one group, and runs its
 * groups one after the other. The CLIs stay at the shell's priority: they reach local state
 * through wrangler's platform proxy, whose synchronous calls lose an answer on a starved
 * machine (scripts/miniflare-proxy-race.ts), and niced beside the browser files one did
 * (holdout-cli.test.ts), and eight of their tests passed 10 s.
 */
export interface TestPart {
  /** What the part is called in the output. */
  name: string;
  /** The Vitest projects it runs (vitest.config.ts). */
  projects: readonly string[];
  /** Its `nice` increment: 0, or how far below the other part it yields. */
  niceness: number;
}

/**
 * How far the second part yields. At 5 it has a quarter of a core's share against a browser
 * file's process, and took every moment those left idle; at 10 (2026-11-30) it got a tenth of a
 * core whenever the browser files had work, and its CLI tests passed their timeouts. The check
 * beside both (`nice -n 19`, run-side-by-side.ts) still yields to it.
 */
const YIELDING = 5;

export const TEST_PARTS: readonly TestPart[] = [
  {
    name: 'the browser group, then the CLIs',
    projects: ['browser', 'worker-apart', 'cli'],
    niceness: 0,
  },
  {
    name: 'the unit and worker groups',
    projects: ['unit', 'unit-mocks', 'worker'],
    niceness: YIELDING,
  },
];

/** The parts' counts added; a part that printed none counts as one failure. */
export function totalCounts(counts: readonly (TestCounts | undefined)[]): TestCounts {
  return counts.reduce<TestCounts>(
    (sum, part) => ({
      passed: sum.passed + (part?.passed ?? 0),
      failed: sum.failed + (part ? part.failed : 1),
      skipped: sum.skipped + (part?.skipped ?? 0),
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
}

/** A part as it ends: its exit code and everything it printed. */
export interface PartOutcome {
  code: number;
  output: string;
}

/** A part's process: its output as it comes, and its end. */
export interface PartProcess {
  onOutput(listener: (text: string) => void): void;
  exit: Promise<number>;
  stop(): void;
}

/**
 * Runs the parts at once and writes their output in order: the first part's as it comes, each
 * later part's held until every part before it has ended, then written whole and followed as it
 * comes, so the log reads one part after the other. Resolves each part's outcome.
 */
export function runParts(
  parts: readonly TestPart[],
  start: (part: TestPart) => PartProcess,
  write: (text: string) => void,
): { outcomes: Promise<PartOutcome[]>; stop: () => void } {
  const processes = parts.map(start);
  const outputs = parts.map(() => '');
  /** The part whose output is written as it comes; the later ones' is held. */
  let current = 0;
  for (const [index, process] of processes.entries()) {
    process.onOutput((text) => {
      outputs[index] += text;
      if (index === current) write(text);
    });
  }
  const outcomes = (async () => {
    const codes: number[] = [];
    for (const [index, process] of processes.entries()) {
      codes.push(await process.exit);
      current = index + 1;
      if (current < processes.length) write(outputs[current]!);
    }
    return codes.map((code, index) => ({ code, output: outputs[index]! }));
  })();
  const stop = () => {
    for (const process of processes) process.stop();
  };
  return { outcomes, stop };
}

/** A Vitest run of `args`, at `niceness`, its output read as it comes. */
export function vitestProcess(
  vitest: string,
  args: readonly string[],
  niceness: number,
  env: NodeJS.ProcessEnv,
): PartProcess {
  const command = niceness > 0 ? ['nice', '-n', String(niceness), vitest] : [vitest];
  const child: ChildProcess = spawn(command[0]!, [...command.slice(1), 'run', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const listeners: ((text: string) => void)[] = [];
  const emit = (chunk: Buffer) => {
    for (const listener of listeners) listener(chunk.toString());
  };
  child.stdout?.on('data', emit);
  child.stderr?.on('data', emit);
  const exit = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      emit(Buffer.from(`${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  return {
    onOutput: (listener) => listeners.push(listener),
    exit,
    stop: () => child.kill('SIGTERM'),
  };
}
