import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { memoryTemporaryFolder } from './memory-folder';
import { machineBusySeconds } from './processor-time';
import { thenBeside } from './run-side-by-side';

/**
 * `npm test`: the build and `npm run check` side by side, then every Vitest project as soon as the
 * build has passed, the check finishing beside it (run-side-by-side.ts `thenBeside`: a failing
 * check stops the tests and fails the run). Vitest's summary ends with the whole run's wall time
 * beside its budget, and fails the run over it on a machine idle at its start
 * (test/summary-reporter.ts). Arguments go to Vitest (`npm test -- test/unit/docs.test.ts`). Its
 * temporary files, Miniflare's storage among them, go to memory where the machine allows
 * (memory-folder.ts).
 */

/**
 * Read by test/summary-reporter.ts: the run's start, from which it prints the whole run's wall
 * time, and the machine's 1-minute load average then, which says whether the budget may fail it.
 */
const NPM_TEST_STARTED = 'NPM_TEST_STARTED';
const NPM_TEST_START_LOAD = 'NPM_TEST_START_LOAD';
/** And the machine's busy processor seconds then: what the whole run kept the cores busy for. */
const NPM_TEST_START_BUSY = 'NPM_TEST_START_BUSY';

const started = Date.now();
// Before the build and check start their own processes: the load of whatever else runs here.
const startLoad = loadavg()[0];
const startBusy = machineBusySeconds();
const vitest = join(process.cwd(), 'node_modules', '.bin', 'vitest');
const code = await thenBeside(
  'build',
  'check',
  () => {
    const child = spawn(vitest, ['run', ...process.argv.slice(2)], {
      stdio: 'inherit',
      // For the summary's wall time of the whole `npm test`, build and check included.
      env: {
        ...process.env,
        // Miniflare's storage on a tmpfs where there is one (memory-folder.ts).
        ...memoryTemporaryFolder(),
        [NPM_TEST_STARTED]: String(started),
        [NPM_TEST_START_LOAD]: String(startLoad),
        ...(startBusy === undefined ? {} : { [NPM_TEST_START_BUSY]: String(startBusy) }),
      },
    });
    const exit = new Promise<number>((resolve) => {
      child.on('error', (error) => {
        console.error(error.message);
        resolve(1);
      });
      child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    return { exit, stop: () => child.kill('SIGTERM') };
  },
  (text) => process.stdout.write(text),
);
process.exit(code);
