import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `npm test` after the build: every test (vitest) and the static checks (`npm run check`: Biome,
 * tsc, the import walls, knip) at once. The test run leaves about a third of two cores idle while
 * Chromium and workerd wait on each other, and the checks take 40 CPU-seconds on a fresh clone,
 * so they run beside it at low priority (nice 10): they take only the idle time, and never slow a
 * test. Their output is kept and printed after the tests'; the command fails if either fails.
 * Arguments go to vitest (`npm test -- test/unit/locale.test.ts`).
 */

function exitCodeOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

const check = spawn('nice', ['-n', '10', 'npm', 'run', '--silent', 'check'], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
const checkOutput: Buffer[] = [];
check.stdout?.on('data', (chunk: Buffer) => checkOutput.push(chunk));
check.stderr?.on('data', (chunk: Buffer) => checkOutput.push(chunk));
const checked = exitCodeOf(check);

const tests = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const tested = await exitCodeOf(tests);

const checkCode = await checked;
const output = Buffer.concat(checkOutput).toString('utf8').trim();
if (checkCode === 0) {
  console.log('npm run check: passed');
} else {
  console.log(`npm run check: failed (exit ${checkCode})`);
  if (output) console.log(output);
}
process.exit(tested !== 0 || checkCode !== 0 ? 1 : 0);
