import { spawn } from 'node:child_process';

/**
 * Runs npm scripts at the same time (scripts/test.ts, which `npm test` uses to build and
 * check at once). The build takes about 17 s, mostly on one core, and a cold check (every CI run)
 * about 20 s, TypeScript 7's `tsc -b` 8 s of it (TypeScript 5's took 34 s on one core), so on two
 * cores the pair costs about the time of the longer rather than the sum. Each script's output is held and given whole when it ends, so the two
 * never interleave.
 */

export interface ScriptOutcome {
  script: string;
  /** The script's exit code; 1 when it could not start or was killed by a signal. */
  code: number;
  output: string;
  seconds: number;
}

function runScript(script: string, cwd: string): Promise<ScriptOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
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

/** Every script's outcome, in the order given, once the last has ended. */
export function runSideBySide(
  scripts: readonly string[],
  cwd = process.cwd(),
): Promise<ScriptOutcome[]> {
  return Promise.all(scripts.map((script) => runScript(script, cwd)));
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
