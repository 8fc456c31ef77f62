import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** What `npm test` may take on an idle two-core machine, in seconds (docs/testing.md). */
const BUDGET_SECONDS = 300;

/**
 * The variable `npm test` (scripts/test.ts) sets to its start, epoch ms, so the summary can say
 * the whole run's wall time, the build and check before Vitest included.
 */
const NPM_TEST_STARTED = 'NPM_TEST_STARTED';

/** How many of the slowest files the summary names: where to look when the budget breaks. */
const SLOWEST_SHOWN = 10;

/**
 * Ends the run with the ten slowest test files, the run's wall time, and one plain line, `N
 * passed, N failed, N skipped`, that CI reads whatever the terminal's colours. A file's time is
 * what Vitest measured of it (collecting and running its tests, its setup included), so a file
 * that waits or starts a worker shows here even where its tests are quick (docs/testing.md,
 * "The suite's budget").
 */
export default class SummaryReporter implements Reporter {
  private started = performance.now();
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.started = performance.now();
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    const slowest = testModules
      .map((module) => ({
        file: relative(this.root, module.moduleId),
        project: module.project.name,
        seconds: fileSeconds(module),
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST_SHOWN);
    const wall = (performance.now() - this.started) / 1000;
    const lines = slowest.map(
      ({ file, project, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${file} (${project})`,
    );
    console.log(
      `\nThe slowest files:\n${lines.join('\n')}\n` +
        `Their projects' files, added up (two run at a time):\n${projectLines(testModules)}\n` +
        `Vitest took ${wall.toFixed(0)} s wall for ${testModules.length} files.`,
    );
    const npmTestStarted = Number(process.env[NPM_TEST_STARTED]);
    if (Number.isFinite(npmTestStarted) && npmTestStarted > 0) {
      const seconds = Math.round((Date.now() - npmTestStarted) / 1000);
      console.log(`npm test took ${seconds} s wall; the budget is ${BUDGET_SECONDS} s.`);
    }
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}

/** Each project's files and the sum of their times, the most first: which tier to cut. */
function projectLines(testModules: ReadonlyArray<TestModule>): string {
  const byProject = new Map<string, { files: number; seconds: number }>();
  for (const module of testModules) {
    const sum = byProject.get(module.project.name) ?? { files: 0, seconds: 0 };
    sum.files += 1;
    sum.seconds += fileSeconds(module);
    byProject.set(module.project.name, sum);
  }
  return [...byProject]
    .sort(([, a], [, b]) => b.seconds - a.seconds)
    .map(
      ([project, { files, seconds }]) =>
        `  ${seconds.toFixed(0).padStart(7)} s  ${project} (${files} files)`,
    )
    .join('\n');
}

/** A file's own time: setting it up, collecting its tests and running them. */
function fileSeconds(module: TestModule): number {
  const { setupDuration, collectDuration, duration } = module.diagnostic();
  return (setupDuration + collectDuration + duration) / 1000;
}
