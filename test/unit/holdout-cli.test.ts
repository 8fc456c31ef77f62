import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConfigCli } from '../../scripts/config-cli';
import { runExperimentsCli } from '../../scripts/experiments-cli';
import { parseHoldoutArgs } from '../../scripts/holdout-command';
import { holdLocalPlatformsOpen } from '../../scripts/local-platform';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import { movedHoldout } from '../../shared/holdout';
import { printedBy } from '../fixtures/printed';

/**
 * `npm run experiments -- holdout start|analysis|end` (scripts/holdout-command.ts): its
 * arguments, the move it makes, and the moves published to a throwaway local KV as the console
 * and `npm run config -- set` publish, refused with the publish's reasons.
 */

const NOW = new Date('2026-11-28T12:00:00.000Z');
const NONE: ExperimentsDocument = { version: 'v1', experiments: {} };

describe('holdout arguments', () => {
  it('start takes a percent from 1 to 10, and a seed', () => {
    expect(parseHoldoutArgs(['holdout', 'start', '--percent', '5', '--seed', 'h-1'])).toEqual({
      kind: 'run',
      command: { name: 'holdout', move: 'start', percent: 5, seed: 'h-1', note: '' },
      options: { remote: false, environment: 'development', persistTo: undefined },
    });
    for (const percent of [[], ['--percent', '11'], ['--percent', '0.5']])
      expect(parseHoldoutArgs(['holdout', 'start', ...percent])).toEqual({
        kind: 'usage-error',
        error: 'start needs --percent, a share from 1 to 10 such as 5',
      });
  });

  it('analysis and end take no percent; the deployed store must be named', () => {
    expect(parseHoldoutArgs(['holdout', 'end', '--percent', '5'])).toMatchObject({
      kind: 'usage-error',
      error: '--percent and --seed are for start, not end',
    });
    expect(parseHoldoutArgs(['holdout', 'end', '--remote'])).toMatchObject({
      kind: 'usage-error',
      error: '--remote needs --env staging or --env production',
    });
    expect(parseHoldoutArgs(['holdout', 'pause'])).toMatchObject({ kind: 'usage-error' });
  });
});

describe('a holdout move', () => {
  it('starts running now, moves to analysis now, ends now', () => {
    const started = movedHoldout(NONE, { move: 'start', percent: 5, seed: 'h-1a2b3c4d' }, NOW);
    if (!started.ok) throw new Error(started.error);
    expect(started.value.holdout).toEqual({
      seed: 'h-1a2b3c4d',
      percent: 5,
      status: 'running',
      startedAt: NOW.toISOString(),
    });
    const analysed = movedHoldout(
      started.value,
      { move: 'analysis', percent: null, seed: 'unused' },
      NOW,
    );
    expect(analysed.ok && analysed.value.holdout).toMatchObject({
      status: 'analysis',
      analysisFrom: NOW.toISOString(),
    });
    expect(movedHoldout(started.value, { move: 'start', percent: 5, seed: 'h-2' }, NOW)).toEqual({
      ok: false,
      error: `holdout ${started.value.holdout?.seed} is running: end it first`,
    });
    expect(movedHoldout(NONE, { move: 'end', percent: null, seed: 'unused' }, NOW)).toEqual({
      ok: false,
      error: 'no holdout runs: start one first',
    });
  });
});

/** One command of `npm run experiments` (or `config`), with what it printed. */
async function run(cli: typeof runConfigCli, args: readonly string[]) {
  const { code, printed } = await printedBy(() => cli(args));
  // Without workerd's start-up warnings and the publish's log line.
  const said = printed.filter((line) => !line.startsWith('workerd/') && !line.startsWith('{"ts"'));
  return { code, printed: said };
}

describe('holdout moves published to local KV', { timeout: 120_000 }, () => {
  let dir: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    close = holdLocalPlatformsOpen();
    dir = await mkdtemp(join(tmpdir(), 'holdout-cli-'));
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  it('start, analysis and end each publish a version; a second start is refused', async () => {
    const state = ['--persist-to', dir];
    const start = ['holdout', 'start', '--percent', '5', '--seed', 'h-cli', ...state];
    expect(await run(runExperimentsCli, start)).toEqual({
      code: 0,
      printed: ['published v1: holdout h-cli (5%) running'],
    });
    expect(await run(runExperimentsCli, start)).toEqual({
      code: 1,
      printed: ['error: holdout h-cli is running: end it first; nothing written'],
    });
    expect((await run(runExperimentsCli, ['holdout', 'analysis', ...state])).code).toBe(0);
    expect((await run(runExperimentsCli, ['holdout', 'end', ...state])).printed).toEqual([
      'published v3: holdout h-cli (5%) ended',
    ]);
    // The publish's own check: a new holdout takes a new seed.
    expect(await run(runExperimentsCli, start)).toMatchObject({
      code: 1,
      printed: [expect.stringContaining('a new holdout takes a new seed')],
    });
    const shown = await run(runConfigCli, ['show', ...state]);
    expect(shown.printed.join('\n')).toMatch(/^holdout h-cli: ended \S+Z; held 5% out from \S+Z$/m);
    const got = await run(runConfigCli, ['get', ...state]);
    expect(JSON.parse(got.printed.at(-1)!).experiments.holdout).toMatchObject({
      seed: 'h-cli',
      status: 'ended',
      analysisFrom: expect.any(String),
      endedAt: expect.any(String),
    });
  });
});
