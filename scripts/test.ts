import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runSideBySide, sideBySideReport } from './run-side-by-side';

/**
 * `npm test`: the build and `npm run check` side by side (run-side-by-side.ts), then every Vitest
 * project, whose summary ends with the whole run's wall time beside its budget
 * (test/summary-reporter.ts). Arguments go to Vitest (`npm test -- test/unit/docs.test.ts`).
 */

/** Read by test/summary-reporter.ts, which prints the whole run's wall time from it. */
const NPM_TEST_STARTED = 'NPM_TEST_STARTED';

const started = Date.now();
const { text, failed } = sideBySideReport(await runSideBySide(['build', 'check']));
process.stdout.write(text);
if (failed.length > 0) process.exit(1);

const vitest = join(process.cwd(), 'node_modules', '.bin', 'vitest');
const code = await new Promise<number>((resolve) => {
  const child = spawn(vitest, ['run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    // For the summary's wall time of the whole `npm test`, build and check included.
    env: { ...process.env, [NPM_TEST_STARTED]: String(started) },
  });
  child.on('error', (error) => {
    console.error(error.message);
    resolve(1);
  });
  child.on('close', (exit, signal) => resolve(exit ?? (signal ? 1 : 0)));
});
process.exit(code);
