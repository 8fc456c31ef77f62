import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { PublishAnswer } from '../../../shared/console-api/config';
import { type RampMoveRequest, rampMovePath } from '../../../shared/console-api/ramp-status';
import { LOCAL_AUTHOR } from '../../../worker/access/console-access';
import { gateOf } from '../../../worker/alerts/break-glass';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { kvLiveKeys, publish } from '../../../worker/config/publish';
import { d1Runner, versionStore } from '../../../worker/config/versions';
import { aiLandingTest, rampedAiLandingTest } from '../../fixtures/ai-landing-test';
import { rampedTiktokRouting } from '../../fixtures/ramped-route';
import { wonDecision } from '../../fixtures/won-decision';
import { emptyExperiments } from '../experiments/experiment-fixtures';
import { freshApp } from '../fetch-app';

/**
 * Holding, resuming and rolling back a live ramp from the console (worker/console/
 * ramp-move-route.ts) against the real KV and CONFIG_DB: each move a version by the marketer
 * with its reason, the state the console saw checked so a resend or a stale page writes nothing,
 * and the console's write guards in front.
 */

const fetchApp = freshApp({ random: () => 0.5 });
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
const SINCE = '2026-12-01T12:00:00.000Z';

const RAMPED = rampedAiLandingTest(SINCE);

const stores = {
  versions: versionStore(d1Runner(env.CONFIG_DB)),
  live: kvLiveKeys(env.FUNNEL_CONFIG),
  gate: gateOf(env),
};

function move(body: unknown, headers: Record<string, string> = SAME_ORIGIN) {
  return fetchApp(rampMovePath('lp-ai'), {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

const request = (
  name: RampMoveRequest['move'],
  status: RampMoveRequest['seen']['status'],
  since = SINCE,
): RampMoveRequest => ({ move: name, reason: `${name} it`, seen: { status, since } });

async function liveRamp() {
  const head = await stores.versions.head();
  return { head, ramp: head?.document.experiments.experiments['lp-ai']?.ramp };
}

/** The built-in config with `lp-ai` as given, published by anna@example.com on `base`. */
function publishLive(
  base: number | null,
  experiment: ExperimentDocument,
  routing: RoutingDocument = DEFAULT_ROUTING,
) {
  return publish(stores, {
    base,
    document: {
      split: DEFAULT_SPLIT,
      flows: DEFAULT_FLOWS,
      routing,
      content: EMPTY_CONTENT,
      experiments: { version: 'v0', experiments: { 'lp-ai': experiment } },
    },
    author: 'anna@example.com',
    note: 'the AI landing',
    source: 'console',
    now: new Date('2026-12-01T12:00:00Z'),
  });
}

beforeEach(async () => {
  await emptyExperiments();
  await env.CONFIG_DB.prepare('DELETE FROM config_versions').run();
  // The last test's live experiments (a rolled-back ramp stays rolled back) go with it.
  await env.FUNNEL_CONFIG.delete('experiments');
  expect((await publishLive(null, RAMPED)).kind).toBe('published');
});

describe('steering a live ramp from the console', () => {
  it('holds, resumes and rolls back, each a version by the marketer with the reason', async () => {
    const held = await move(request('hold', 'running'));
    expect(held.status).toBe(200);
    const { version } = (await held.json()) as PublishAnswer;
    expect(version).toMatchObject({
      seq: 2,
      author: LOCAL_AUTHOR,
      source: 'console',
      note: 'Ramp of lp-ai: hold: hold it',
    });
    expect((await liveRamp()).ramp?.state).toEqual({
      step: 0,
      since: SINCE,
      status: 'held',
      reason: 'hold it',
    });
    // KV serves it: the edge reads the held ramp.
    const kv = JSON.parse((await env.FUNNEL_CONFIG.get('experiments', 'text')) ?? '{}');
    expect(kv.experiments['lp-ai'].ramp.state.status).toBe('held');

    expect((await move(request('resume', 'held'))).status).toBe(200);
    const back = await move(request('rollback', 'running'));
    expect(back.status).toBe(200);
    const { head, ramp } = await liveRamp();
    expect(head?.seq).toBe(4);
    expect(ramp?.state).toMatchObject({ status: 'rolled_back', reason: 'rollback it' });
    expect(ramp?.state.since).not.toBe(SINCE);
  });

  it('rolls back a winner rolled out in steps: the decision’s ramp, the test’s untouched', async () => {
    // Afresh: the AI landing ran without a ramp, then shipped to its audience in steps.
    await env.CONFIG_DB.prepare('DELETE FROM config_versions').run();
    await env.FUNNEL_CONFIG.delete('experiments');
    const running = aiLandingTest(1);
    const rampedRollOut = wonDecision('ai', { ramp: RAMPED.ramp! });
    expect((await publishLive(null, running)).kind).toBe('published');
    const shipping = { ...running, status: 'shipped', decision: rampedRollOut } as const;
    expect((await publishLive(1, shipping)).kind).toBe('published');
    const back = await move(request('rollback', 'running'));
    expect(back.status).toBe(200);
    expect(((await back.json()) as PublishAnswer).version.note).toBe(
      'Ramp of the roll-out of lp-ai: rollback: rollback it',
    );
    const { head } = await liveRamp();
    const shipped = head!.document.experiments.experiments['lp-ai']!;
    expect(shipped.decision?.ramp?.state).toMatchObject({
      status: 'rolled_back',
      reason: 'rollback it',
    });
    expect(shipped.decision).toMatchObject({ by: 'anna@example.com', action: 'roll_out' });
    expect(shipped.ramp).toBeUndefined();
  });

  it('writes nothing for a ramp moved since the console showed it, or a move its status refuses', async () => {
    // Already held by the cron: a resent hold, and a resume of a state never seen.
    expect((await move(request('hold', 'running'))).status).toBe(200);
    for (const stale of [
      request('hold', 'running'),
      request('resume', 'held', '2026-12-01T13:00:00.000Z'),
      request('hold', 'held'),
    ]) {
      const answer = await move(stale);
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({ ok: false, error: 'ramp_changed' });
    }
    expect((await liveRamp()).head?.seq).toBe(2);
  });

  it('refuses a request without a reason, of another site, or for no experiment', async () => {
    expect((await move({ ...request('rollback', 'running'), reason: ' ' })).status).toBe(400);
    expect((await move({ ...request('rollback', 'running'), move: 'advance' })).status).toBe(400);
    const crossSite = await move(request('rollback', 'running'), {
      'Sec-Fetch-Site': 'cross-site',
      'Content-Type': 'application/json',
    });
    expect(crossSite.status).toBe(403);
    const unknown = await fetchApp(rampMovePath('nope'), {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify(request('rollback', 'running')),
    });
    expect(unknown.status).toBe(404);
    expect((await liveRamp()).head?.seq).toBe(1);
  });
});

describe('steering a new route’s ramp from the console', () => {
  /** `tiktok_new` on the ramp of the experiment's fixture, running, above default. */
  const RAMPED_ROUTING = rampedTiktokRouting({
    ...RAMPED.ramp!,
    state: { step: 0, since: SINCE, status: 'running' },
  });
  const moveRoute = (id: string, body: RampMoveRequest) =>
    fetchApp(rampMovePath(id), {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify(body),
    });
  const liveRoute = async () =>
    (await stores.versions.head())?.document.routing.routes.find(
      (route) => route.id === 'tiktok_new',
    );

  beforeEach(async () => {
    expect((await publishLive(1, RAMPED, RAMPED_ROUTING)).kind).toBe('published');
  });

  it('holds and rolls back the route’s ramp by its results’ id, each a version with the reason', async () => {
    const held = await moveRoute('route:tiktok_new', request('hold', 'running'));
    expect(held.status).toBe(200);
    expect(((await held.json()) as PublishAnswer).version).toMatchObject({
      seq: 3,
      author: LOCAL_AUTHOR,
      note: 'Ramp of route tiktok_new: hold: hold it',
    });
    expect((await liveRoute())?.ramp?.state).toEqual({
      step: 0,
      since: SINCE,
      status: 'held',
      reason: 'hold it',
    });
    // The experiment's ramp is another subject: untouched.
    expect((await liveRamp()).ramp?.state.status).toBe('running');

    expect((await moveRoute('route:tiktok_new', request('rollback', 'held'))).status).toBe(200);
    // KV serves it: the edge routes the ramp's visitors to the fallback.
    const kv = JSON.parse((await env.FUNNEL_CONFIG.get('routing', 'text')) ?? '{}');
    const route = kv.routes.find((candidate: { id: string }) => candidate.id === 'tiktok_new');
    expect(route.ramp.state).toMatchObject({ status: 'rolled_back', reason: 'rollback it' });
  });

  it('refuses a route that is not there, one without a ramp, and a stale state, writing nothing', async () => {
    for (const id of ['route:nope', 'route:', 'route:Tiktok', 'constructor']) {
      const answer = await moveRoute(id, request('hold', 'running'));
      expect(answer.status, id).toBe(404);
    }
    const unramped = await moveRoute('route:default', request('hold', 'running'));
    expect(unramped.status).toBe(409);
    expect(await unramped.json()).toEqual({ ok: false, error: 'ramp_changed' });
    const stale = await moveRoute('route:tiktok_new', request('resume', 'held'));
    expect(stale.status).toBe(409);
    expect((await stores.versions.head())?.seq).toBe(2);
  });
});
