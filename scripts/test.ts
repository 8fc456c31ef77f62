import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryTemporaryFolder } from './memory-folder';
import { thenBeside } from './run-side-by-side';
import { NPM_TEST_PART_FILE, type RunPart, wholeRunSummary } from './test-budget';
import { BESIDE_NICE, TEST_PARTS } from './test-parts';

/**
 * `npm test`: the build and `npm run check` side by side, then every Vitest project as soon as the
 * build has passed, the check finishing beside it (run-side-by-side.ts `thenBeside`: a failing
 * check stops the tests and fails the run). The projects run as two Vitest processes at once
 * (test-parts.ts): the browser files and worker groups, and beside them, niced, the unit files
 * and CLIs, on the cores the browser files leave idle while they wait (a browser subset took
 * 177 s alone and 182 s beside the niced unit project, which went on alone 83 s after it, where
 * one after the other took 294 s). The run ends with the whole run's summary: its wall time
 * beside its budget, which fails it on a machine idle at its start (test/summary-reporter.ts).
 * Arguments go to Vitest (`npm test -- test/unit/docs.test.ts`); a run naming its projects
 * (`--project`) is one Vitest process. Its temporary files, Miniflare's storage among them, go to
 * memory where the machine allows (memory-folder.ts).
 */

/**
 * Read by test/summary-reporter.ts: the run's start, from which it prints the whole run's wall
 * time, and the machine's 1-minute load average then, which says whether the budget may fail it.
 */
const NPM_TEST_STARTED = 'NPM_TEST_STARTED';
const NPM_TEST_START_LOAD = 'NPM_TEST_START_LOAD';

const started = Date.now();
// Before the build and check start their own processes: the load of whatever else runs here.
const startLoad = loadavg()[0];
const vitest = join(process.cwd(), 'node_modules', '.bin', 'vitest');
const args = process.argv.slice(2);

/** The environment of a Vitest process of this run. */
function vitestEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // Miniflare's storage on a tmpfs where there is one (memory-folder.ts).
    ...memoryTemporaryFolder(),
    [NPM_TEST_STARTED]: String(started),
    [NPM_TEST_START_LOAD]: String(startLoad),
    ...extra,
  };
}

/** A child's exit code, 1 when it could not start or was killed by a signal. */
function exitOf(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      console.error(error.message);
      resolve(1);
    });
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
}

/** One Vitest process over everything `args` ask for: a run that names its own projects. */
function oneVitest(): { exit: Promise<number>; stop: () => void } {
  const child = spawn(vitest, ['run', ...args], { stdio: 'inherit', env: vitestEnv() });
  return { exit: exitOf(child), stop: () => child.kill('SIGTERM') };
}

/**
 * The suite as two Vitest processes (scripts/test-parts.ts): the first part's output as it comes,
 * the part beside whole once it ends, then the whole run's summary and verdict
 * (test/summary-reporter.ts wholeRunSummary), over both parts' files and the whole wall time.
 */
function twoParts(): { exit: Promise<number>; stop: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'npm-test-parts-'));
  const partFile = (part: string) => join(folder, `${part}.json`);
  const projects = (names: readonly string[]) => names.flatMap((name) => ['--project', name]);
  // A file named on the command line is in one part only: the other finds none and passes.
  const common = ['run', '--passWithNoTests', ...args];
  const first = spawn(vitest, [...common, ...projects(TEST_PARTS.first)], {
    stdio: 'inherit',
    env: vitestEnv({ [NPM_TEST_PART_FILE]: partFile('first') }),
  });
  const beside = spawn(
    'nice',
    ['-n', String(BESIDE_NICE), vitest, ...common, ...projects(TEST_PARTS.beside)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: vitestEnv({ [NPM_TEST_PART_FILE]: partFile('beside'), FORCE_COLOR: '1' }),
    },
  );
  const held: Buffer[] = [];
  beside.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
  beside.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
  const besideExit = exitOf(beside).then((code) => {
    process.stdout.write(
      `\n── the unit files and CLIs, beside (exit ${code}):\n${Buffer.concat(held).toString('utf8')}`,
    );
    return code;
  });
  const exit = Promise.all([exitOf(first), besideExit]).then((codes) => {
    const parts = ['first', 'beside'].flatMap((part): RunPart[] =>
      existsSync(partFile(part)) ? [JSON.parse(readFileSync(partFile(part), 'utf8'))] : [],
    );
    rmSync(folder, { recursive: true, force: true });
    const summary = wholeRunSummary(parts, {
      wallSeconds: (Date.now() - started) / 1000,
      startLoad,
    });
    console.log(summary.lines.join('\n'));
    const files = parts.reduce((sum, part) => sum + part.files.length, 0);
    if (files === 0) console.error('No test file matched: nothing ran.');
    return codes.some((code) => code !== 0) || summary.fails || files === 0 ? 1 : 0;
  });
  return {
    exit,
    stop: () => {
      first.kill('SIGTERM');
      beside.kill('SIGTERM');
    },
  };
}

// A run that names its projects (`npm test -- --project unit`) is one Vitest process, as asked.
const namesProjects = args.some((arg) => arg === '--project' || arg.startsWith('--project='));
const code = await thenBeside('build', 'check', namesProjects ? oneVitest : twoParts, (text) =>
  process.stdout.write(text),
);
process.exit(code);
