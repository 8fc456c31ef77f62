import { spawn } from 'node:child_process';

/**
 * `tsx scripts/side-by-side.ts build check`: runs those npm scripts at the same time and fails if
 * any of them fails. `npm test` builds and checks this way: a cold `tsc -b` (every CI run) takes
 * about 30 s on one core and the build about 13 s, mostly on one core too, so on two cores the
 * pair costs the time of the longer rather than the sum. Each script's output is held and printed
 * whole when it ends, so the two never interleave.
 */

interface Outcome {
  script: string;
  code: number;
  output: string;
  seconds: number;
}

function runScript(script: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
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

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: tsx scripts/side-by-side.ts <npm script> [<npm script> …]');
  process.exit(2);
}

const outcomes = await Promise.all(scripts.map(runScript));
for (const { script, code, output, seconds } of outcomes) {
  const verdict = code === 0 ? 'passed' : `failed (exit ${code})`;
  process.stdout.write(`\n── npm run ${script}: ${verdict} in ${seconds.toFixed(1)} s\n${output}`);
}
const failed = outcomes.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.script);
if (failed.length > 0) {
  console.error(`\n${failed.map((script) => `npm run ${script}`).join(' and ')} failed`);
  process.exit(1);
}
