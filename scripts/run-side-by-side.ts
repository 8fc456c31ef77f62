import { spawn } from 'node:child_process';

/**
 * Runs npm scripts at the same time (scripts/test.ts: `npm test` builds and checks at once, and
 * starts the tests once the build has passed, the check finishing beside them, `thenBeside`). The
 * build takes about 16 s, mostly on one core, and a cold check (every CI run) about 26 s beside
 * it, TypeScript 7's `tsc -b` 8 s of it, so on two cores the pair costs about the time of the
 * longer rather than the sum, and the tests need not wait for the longer. Each script's output is
 * held and given whole when it ends, so the two never interleave.
 */

export interface ScriptOutcome {
  script: string;
  /** The script's exit code; 1 when it could not start or was killed by a signal. */
  code: number;
  output: string;
  seconds: number;
}

/**
 * The script in `cwd`, its output held. `yielding`: at the lowest priority (`nice -n 19`, which
 * every process it starts inherits), so it takes only the processor time nothing else wants.
 */
export function runScript(
  script: string,
  cwd = process.cwd(),
  { yielding = false }: { yielding?: boolean } = {},
): Promise<ScriptOutcome> {
  const started = performance.now();
  const command = ['npm', 'run', '--silent', script];
  if (yielding) command.unshift('nice', '-n', '19');
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const finish = (code: number) =>
      resolve({
        script,
        code,
        output: Buffer.concat(chunks).toString('utf8'),
        seconds: (performance.now() - started) / 1000,
      });
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

/** What to print: each script's verdict and output in turn, then the failures by name. */
export function sideBySideReport(outcomes: readonly ScriptOutcome[]): {
  text: string;
  failed: string[];
} {
  const blocks = outcomes.map(({ script, code, output, seconds }) => {
    const verdict = code === 0 ? 'passed' : `failed (exit ${code})`;
    return `\n── npm run ${script}: ${verdict} in ${seconds.toFixed(1)} s\n${output}`;
  });
  const failed = outcomes.filter((outcome) => outcome.code !== 0).map(({ script }) => script);
  const summary =
    failed.length > 0
      ? `\n${failed.map((script) => `npm run ${script}`).join(' and ')} failed\n`
      : '';
  return { text: blocks.join('') + summary, failed };
}

/** A command started once its prerequisite passed: how it ends, and how to stop it. */
export interface Started {
  exit: Promise<number>;
  stop(): void;
}

/**
 * `first` and `beside` at once; once `first` has passed, `then` starts while `beside` may still
 * run (npm test: the build, then Vitest, with the check beside both: the check is not needed by any
 * test, and on two cores its last seconds cost Vitest less than waiting for it). `beside` yields
 * (runScript): beside the build it takes the core the build leaves, beside the tests the moments
 * their files wait, never a core a test needs. Each script's report is written as it ends
 * (`write`); a `beside` that fails stops `then` at once. Resolves the exit code: 1 when either
 * script failed, else `then`'s.
 */
export async function thenBeside(
  first: string,
  beside: string,
  then: () => Started,
  write: (text: string) => void,
  cwd = process.cwd(),
): Promise<number> {
  const besideRun = runScript(beside, cwd, { yielding: true });
  const firstOutcome = await runScript(first, cwd);
  if (firstOutcome.code !== 0) {
    write(sideBySideReport([firstOutcome, await besideRun]).text);
    return 1;
  }
  write(sideBySideReport([firstOutcome]).text);
  const started = then();
  const besideFailed = besideRun.then((outcome) => {
    const report = sideBySideReport([outcome]);
    write(report.text);
    if (report.failed.length > 0) started.stop();
    return report.failed.length > 0;
  });
  const code = await started.exit;
  if (await besideFailed) {
    write(`\nnpm run ${beside} failed: the tests were stopped\n`);
    return 1;
  }
  return code;
}
