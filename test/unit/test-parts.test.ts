import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countsOf } from '../../scripts/suite-budget';
import {
  type PartProcess,
  runParts,
  TEST_PARTS,
  type TestPart,
  totalCounts,
} from '../../scripts/test-parts';

/** A part's process the test drives: what it prints and when it ends. */
function fakePart() {
  const listeners: ((text: string) => void)[] = [];
  let end: (code: number) => void = () => {};
  let stopped = false;
  const process: PartProcess = {
    onOutput: (listener) => listeners.push(listener),
    exit: new Promise((resolve) => {
      end = resolve;
    }),
    stop: () => {
      stopped = true;
    },
  };
  return {
    process,
    print: (text: string) => {
      for (const listener of listeners) listener(text);
    },
    end: (code: number) => end(code),
    stopped: () => stopped,
  };
}

const PARTS: readonly TestPart[] = [
  { name: 'first', projects: ['browser'], niceness: 0 },
  { name: 'second', projects: ['unit'], niceness: 5 },
];

describe('npm test in two parts', () => {
  it('runs every project once: the browser group and the CLIs first, the rest yielding', () => {
    // The projects' names as vitest.config.ts gives them (importing it starts Vite's plugins).
    const config = readFileSync('vitest.config.ts', 'utf8');
    const projects = [...config.matchAll(/^\s+name: '([\w-]+)',$/gm)].map((found) => found[1]);
    const run = TEST_PARTS.flatMap((part) => part.projects);
    expect([...run].sort()).toEqual([...projects].sort());
    expect(TEST_PARTS[0]).toMatchObject({
      projects: ['browser', 'worker-apart', 'cli'],
      niceness: 0,
    });
    expect(TEST_PARTS[1]!.niceness).toBeGreaterThan(0);
  });

  it('writes the first part as it comes and holds the second until the first has ended', async () => {
    const fakes = [fakePart(), fakePart()];
    const written: string[] = [];
    const { outcomes } = runParts(
      PARTS,
      (part) => fakes[PARTS.indexOf(part)]!.process,
      (text) => written.push(text),
    );
    fakes[0]!.print('browser 1\n');
    fakes[1]!.print('unit 1\n');
    fakes[1]!.print('unit 2\n');
    expect(written).toEqual(['browser 1\n']);
    fakes[0]!.end(0);
    await Promise.resolve();
    await Promise.resolve();
    expect(written.join('')).toBe('browser 1\nunit 1\nunit 2\n');
    fakes[1]!.print('unit 3\n');
    expect(written.at(-1)).toBe('unit 3\n');
    fakes[1]!.end(1);
    expect(await outcomes).toEqual([
      { code: 0, output: 'browser 1\n' },
      { code: 1, output: 'unit 1\nunit 2\nunit 3\n' },
    ]);
  });

  it('writes a second part that ended first whole once the first ends; stop stops both', async () => {
    const fakes = [fakePart(), fakePart()];
    const written: string[] = [];
    const run = runParts(
      PARTS,
      (part) => fakes[PARTS.indexOf(part)]!.process,
      (text) => written.push(text),
    );
    fakes[1]!.print('unit done\n');
    fakes[1]!.end(0);
    fakes[0]!.print('browser\n');
    run.stop();
    expect(fakes.map((fake) => fake.stopped())).toEqual([true, true]);
    fakes[0]!.end(1);
    expect((await run.outcomes).map(({ code }) => code)).toEqual([1, 0]);
    expect(written.join('')).toBe('browser\nunit done\n');
  });

  it('adds the parts’ last lines of counts; a part that printed none is a failure', () => {
    const part = (passed: number, failed: number) =>
      `\u001b[32mTests 3\u001b[39m\n${passed} passed, ${failed} failed, 1 skipped\n`;
    expect(countsOf(part(286, 0))).toEqual({ passed: 286, failed: 0, skipped: 1 });
    expect(countsOf('Error: config failed to load\n')).toBeUndefined();
    expect(totalCounts([countsOf(part(286, 0)), countsOf(part(6557, 2))])).toEqual({
      passed: 6843,
      failed: 2,
      skipped: 2,
    });
    expect(totalCounts([countsOf(part(286, 0)), undefined])).toEqual({
      passed: 286,
      failed: 1,
      skipped: 1,
    });
  });
});
