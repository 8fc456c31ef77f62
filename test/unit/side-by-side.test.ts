import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSideBySide, sideBySideReport } from '../../scripts/run-side-by-side';

/**
 * `npm test` builds and checks side by side: a check that fails must fail `npm test`, whatever
 * the build did, and each script's output must reach the reader whole.
 */

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'side-by-side-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'side-by-side-fixture',
      private: true,
      scripts: {
        slow: "node -e \"setTimeout(() => { console.log('slow 1'); console.log('slow 2') }, 300)\"",
        fails: "node -e \"console.log('fails out'); console.error('fails err'); process.exit(3)\"",
      },
    }),
  );
});

describe('npm scripts side by side (npm test: build and check)', () => {
  it('runs them at once and gives each output whole, in the order asked', async () => {
    const started = performance.now();
    const outcomes = await runSideBySide(['slow', 'slow'], project);
    expect(outcomes.map(({ script, code, output }) => ({ script, code, output }))).toEqual([
      { script: 'slow', code: 0, output: 'slow 1\nslow 2\n' },
      { script: 'slow', code: 0, output: 'slow 1\nslow 2\n' },
    ]);
    // One after the other, the run would take the two durations added up; at once, it saves at
    // least the shorter one, which holds a 300 ms wait.
    const [first, second] = outcomes.map(({ seconds }) => seconds) as [number, number];
    const elapsed = (performance.now() - started) / 1000;
    expect(elapsed).toBeLessThan(first + second - 0.2);
    const { text, failed } = sideBySideReport(outcomes);
    expect(failed).toEqual([]);
    expect(text).toMatch(
      /^\n── npm run slow: passed in \d+\.\d s\nslow 1\nslow 2\n\n── npm run slow: passed in \d+\.\d s\nslow 1\nslow 2\n$/,
    );
  });

  it('a script that fails fails the whole, named, with what it printed', async () => {
    const outcomes = await runSideBySide(['slow', 'fails'], project);
    expect(outcomes.map(({ code }) => code)).toEqual([0, 3]);
    const { text, failed } = sideBySideReport(outcomes);
    expect(failed).toEqual(['fails']);
    expect(text).toContain('── npm run fails: failed (exit 3)');
    expect(text).toContain('fails out\n');
    expect(text).toContain('fails err\n');
    expect(text.endsWith('\nnpm run fails failed\n')).toBe(true);
  });

  it('a script that does not exist fails too', async () => {
    const [outcome] = await runSideBySide(['no-such-script'], project);
    expect(outcome?.code).not.toBe(0);
    expect(sideBySideReport([outcome!]).failed).toEqual(['no-such-script']);
  });
});
