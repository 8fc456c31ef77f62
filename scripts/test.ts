import { loadavg } from 'node:os';
import { join } from 'node:path';
import { memoryTemporaryFolder } from './memory-folder';
import { machineBusySeconds } from './processor-time';
import { thenBeside } from './run-side-by-side';
import {
  budgetVerdict,
  countsLine,
  countsOf,
  failureLine,
  failuresOf,
  processorLines,
} from './suite-budget';
import {
  type PartOutcome,
  runParts,
  TEST_PARTS,
  type TestPart,
  totalCounts,
  vitestProcess,
} from './test-parts';

/**
 * `npm test`: the build and `npm run check` side by side, then the Vitest projects as soon as the
 * build has passed, in two processes at once (test-parts.ts), the check finishing beside them
 * (run-side-by-side.ts `thenBeside`: a failing check stops the tests and fails the run). Each
 * part's summary names its slowest files and its tests over 10 s that do not say why
 * (test/summary-reporter.ts); after both, the run's wall time beside its budget, which fails the
 * run over it on a machine idle at its start, the failures both parts named, and the counts of
 * both as the last line. Arguments
 * go to one Vitest (`npm test -- test/unit/docs.test.ts`). Its temporary files, Miniflare's
 * storage among them, go to memory where the machine allows (memory-folder.ts).
 */

/**
 * Read by test/summary-reporter.ts: the machine's 1-minute load average at the run's start,
 * which says whether its slow tests may fail it.
 */
const NPM_TEST_START_LOAD = 'NPM_TEST_START_LOAD';

const started = Date.now();
// Before the build and check start their own processes: the load of whatever else runs here.
const startLoad = loadavg()[0];
const startBusy = machineBusySeconds();
const vitest = join(process.cwd(), 'node_modules', '.bin', 'vitest');
const args = process.argv.slice(2);
const env = {
  ...process.env,
  // Miniflare's storage on a tmpfs where there is one (memory-folder.ts).
  ...memoryTemporaryFolder(),
  [NPM_TEST_START_LOAD]: String(startLoad),
  ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
};
// With arguments (`npm test -- test/unit/docs.test.ts`), one Vitest of them; else the two parts
// (test-parts.ts).
const parts: readonly TestPart[] =
  args.length > 0 ? [{ name: 'the tests', projects: [], niceness: 0 }] : TEST_PARTS;
const partArgs = (part: TestPart) =>
  args.length > 0 ? args : part.projects.flatMap((project) => ['--project', project]);

let outcomes: Promise<PartOutcome[]> | undefined;
const code = await thenBeside(
  'build',
  'check',
  () => {
    const run = runParts(
      parts,
      (part) => vitestProcess(vitest, partArgs(part), part.niceness, env),
      (text) => process.stdout.write(text),
    );
    outcomes = run.outcomes;
    return {
      exit: run.outcomes.then((ended) => (ended.some(({ code }) => code !== 0) ? 1 : 0)),
      stop: run.stop,
    };
  },
  (text) => process.stdout.write(text),
);
process.exit(outcomes ? endOfRun(await outcomes, code) : code);

/**
 * The run's end, after every part: the processor time, the wall time against the budget (which
 * fails an idle machine's run over it, suite-budget.ts budgetVerdict), and the parts'
 * counts added up as the last line, which CI reads. Returns the exit code.
 */
function endOfRun(ended: readonly PartOutcome[], code: number): number {
  const busyNow = machineBusySeconds();
  const lines = processorLines({
    busySeconds: busyNow !== undefined && startBusy !== undefined ? busyNow - startBusy : undefined,
    files: [],
    shown: 0,
  });
  const verdict = budgetVerdict({
    wallSeconds: (Date.now() - started) / 1000,
    startLoad,
    unexplained: [],
  });
  const partCounts = ended.map(({ output }) => countsOf(output));
  const counts = totalCounts(partCounts);
  // Each part's summary names its failures far above this end; CI shows the last lines only.
  const failures = [
    ...failuresOf(ended.map(({ output }) => output)),
    ...parts.flatMap((part, index) =>
      partCounts[index] ? [] : [failureLine(part.name, 'ended before its summary: see its output')],
    ),
  ];
  process.stdout.write(
    `\n${[
      ...(parts.length > 1 ? [`The parts: ${parts.map(({ name }) => name).join('; ')}.`] : []),
      ...lines,
      ...verdict.lines,
      ...(failures.length > 0 ? ['', ...failures] : []),
    ].join('\n')}\n\n${countsLine(counts)}\n`,
  );
  return code !== 0 || verdict.fails ? 1 : 0;
}
