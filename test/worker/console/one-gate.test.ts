import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { CONSOLE_API, type ConfigDocument } from '../../../shared/console-api/config';
import { CONSOLE_COPY_API, type CopyVersionsAnswer } from '../../../shared/console-api/copy';
import { CONSOLE_DRAFT_API, type DraftSavedAnswer } from '../../../shared/console-api/draft';
import { type RampMoveRequest, rampMovePath } from '../../../shared/console-api/ramp-status';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import { DEVELOPMENT_AUTHOR_COOKIE } from '../../../worker/access/console-access';
import { publishStoresOf } from '../../../worker/alerts/break-glass';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { publish } from '../../../worker/config/publish';
import { rampedAiLandingTest } from '../../fixtures/ai-landing-test';
import { freshApp } from '../fetch-app';
import { SPLIT_DOCUMENT } from './documents';

/**
 * One gate (worker/config/gate.ts) with PUBLISH_APPROVAL required, against the real KV and D1:
 * each path that changes what visitors get (publish, roll back, flows, routes, content, copy, a
 * ramp's resume, the cron's and a person's ramp moves) goes out only with a second person's
 * approval of exactly that change, or as a break-glass with its reason in the history and its
 * alert claimed for the webhook; a hold or a roll back of a ramp goes out alone.
 */

const WEBHOOK = 'https://hooks.example.com/services/T000/B000/XXXX';
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
const fetchApp = freshApp({}, { PUBLISH_APPROVAL: 'required' });

/** The console as `email` (the development console takes a browser's chosen name). */
function as(email: string) {
  return async (path: string, body: unknown): Promise<Response> =>
    fetchApp(path, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, Cookie: `${DEVELOPMENT_AUTHOR_COOKIE}=${email}` },
      body: JSON.stringify(body),
    });
}
const ada = as('ada@example.com');
const bob = as('bob@example.com');
const carol = as('carol@example.com');

const get = async <T>(path: string) => (await fetchApp(path)).json() as Promise<T>;

/** Publishes `document` where no approval is asked (the test's own setup), as the next version. */
async function setUp(document: ConfigDocument): Promise<number> {
  const stores = publishStoresOf(env);
  const head = await stores.versions.head();
  const outcome = await publish(stores, {
    base: head?.seq ?? null,
    document,
    author: 'setup@example.com',
    note: 'set up',
    source: 'cli',
    now: new Date(),
  });
  if (outcome.kind !== 'published') throw new Error(`set up: ${outcome.kind}`);
  return outcome.version.seq;
}

const withWebhook = (document: ConfigDocument): ConfigDocument => ({
  ...document,
  experiments: { ...document.experiments, alerts: { webhook: WEBHOOK } },
});

const weighted = (document: ConfigDocument, main: number, other: number): ConfigDocument => ({
  ...document,
  split: {
    ...document.split,
    variants: { default: { weight: main, flow: 'default' }, lp1ch2: { weight: other } },
  },
});

const versionCount = () =>
  env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM config_versions').first<number>('n');

const breakGlassAlerts = async () =>
  (
    await env.CONFIG_DB.prepare(
      "SELECT key, body FROM alert_deliveries WHERE kind = 'break_glass' ORDER BY key",
    ).all<{ key: string; body: string }>()
  ).results;

async function refusal(response: Response) {
  expect(response.status).toBe(403);
  return (await response.json()) as { error: string; reasons?: { path: string; reason: string }[] };
}

beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM config_versions');
  await env.CONFIG_DB.exec('DELETE FROM console_draft_revisions');
  await env.CONFIG_DB.exec('DELETE FROM alert_deliveries');
  await env.CONFIG_DB.exec('DELETE FROM copy_versions');
  for (const key of [
    'split',
    'flows',
    'routing',
    'experiments',
    'content',
    'translations:manifest',
  ])
    await env.FUNNEL_CONFIG.delete(key);
});

describe('a roll back, with PUBLISH_APPROVAL required', () => {
  it('is refused alone; a break-glass needs a reason and a webhook, then is kept and announced', async () => {
    await setUp(SPLIT_DOCUMENT);
    const head = await setUp(weighted(SPLIT_DOCUMENT, 10, 90));
    const alone = await refusal(await ada(CONSOLE_API.rollback, { base: head, seq: 1, note: '' }));
    expect(alone.error).toBe('approval_required');
    expect(alone.reasons?.map((r) => r.reason)).toContain('moves traffic');

    // No webhook to tell: the glass stays whole.
    const unheard = await ada(CONSOLE_API.rollback, {
      base: head,
      seq: 1,
      note: 'checkout broken',
      breakGlass: true,
    });
    expect((await refusal(unheard)).error).toBe('break_glass_refused');
    expect(await versionCount()).toBe(2);

    const heard = await setUp(withWebhook(weighted(SPLIT_DOCUMENT, 10, 90)));
    const reasonless = await ada(CONSOLE_API.rollback, {
      base: heard,
      seq: 1,
      note: '',
      breakGlass: true,
    });
    expect((await refusal(reasonless)).error).toBe('break_glass_refused');
    const broken = await ada(CONSOLE_API.rollback, {
      base: heard,
      seq: 1,
      note: 'checkout broken',
      breakGlass: true,
    });
    expect(broken.status).toBe(200);
    const { versions } = await get<VersionsAnswer>(CONSOLE_API.versions);
    expect(versions[0]).toMatchObject({
      id: 'v4',
      author: 'ada@example.com',
      source: 'rollback',
      restores: 1,
      breakGlass: 'checkout broken',
    });
    expect(versions[0]?.approver).toBeUndefined();
    const [alert] = await breakGlassAlerts();
    expect(alert?.key).toBe('publishing-config|0|break_glass|v4');
    expect(JSON.parse(alert?.body ?? '{}').text).toContain(
      'config version v4 was published by ada@example.com without a second person',
    );
    expect(alert?.body).toContain('checkout broken');
  });

  it('goes through the draft: restored, asked, approved by another, then published by either', async () => {
    await setUp(SPLIT_DOCUMENT);
    const head = await setUp(weighted(SPLIT_DOCUMENT, 10, 90));
    const restored = await ada(CONSOLE_DRAFT_API.restore, { revision: 0, seq: 1 });
    expect(restored.status).toBe(200);
    const { draft } = (await restored.json()) as DraftSavedAnswer;
    expect(draft).toMatchObject({ revision: 1, base: head, editors: ['ada@example.com'] });
    expect(draft.document.split.variants.default?.weight).toBe(50);

    const publishDraft = (call: typeof ada) =>
      call(CONSOLE_API.publish, { base: head, document: draft.document, draft: 1, note: '' });
    expect((await refusal(await publishDraft(ada))).error).toBe('approval_required');
    await ada(CONSOLE_DRAFT_API.review, { revision: 1, note: 'back to 50/50' });
    // The one who asked cannot approve it; another can.
    expect((await ada(CONSOLE_DRAFT_API.approve, { revision: 1 })).status).toBe(403);
    expect((await bob(CONSOLE_DRAFT_API.approve, { revision: 1 })).status).toBe(200);
    const published = await publishDraft(bob);
    expect(published.status).toBe(200);
    const { versions } = await get<VersionsAnswer>(CONSOLE_API.versions);
    expect(versions[0]).toMatchObject({
      author: 'bob@example.com',
      requester: 'ada@example.com',
      approver: 'bob@example.com',
      editors: ['ada@example.com'],
      note: 'back to 50/50',
    });
    expect(versions[0]?.breakGlass).toBeUndefined();
  });
});

describe('a publish of the draft, with PUBLISH_APPROVAL required', () => {
  const publishAlone = async (document: ConfigDocument) => {
    const head = await setUp(SPLIT_DOCUMENT);
    return refusal(await ada(CONSOLE_API.publish, { base: head, document, note: 'mine' }));
  };

  it('refuses a flow, a route or a content edit made alone, each with why', async () => {
    const flows = await publishAlone({
      ...SPLIT_DOCUMENT,
      flows: {
        ...SPLIT_DOCUMENT.flows,
        flows: { ...SPLIT_DOCUMENT.flows.flows, lp1ch2: [...(DEFAULT_FLOWS.flows.lp11ch8 ?? [])] },
      },
    });
    expect(flows.reasons).toEqual([
      { path: 'flows.flows.lp1ch2', reason: 'changes what visitors see' },
    ]);
    await env.CONFIG_DB.exec('DELETE FROM config_versions');
    const routes = await publishAlone({
      ...SPLIT_DOCUMENT,
      routing: {
        ...SPLIT_DOCUMENT.routing,
        audiences: {
          google: { groups: [[{ attribute: 'source', operator: 'in', values: ['google'] }]] },
        },
        routes: [
          { id: 'google', audience: 'google', flow: 'lp1ch2' },
          ...SPLIT_DOCUMENT.routing.routes,
        ],
      },
    });
    expect(routes.reasons?.[0]?.reason).toBe('moves traffic');
    await env.CONFIG_DB.exec('DELETE FROM config_versions');
    const content = await publishAlone({
      ...SPLIT_DOCUMENT,
      content: {
        screens: { one_pager: { copy: { en: { 'screens.one_pager.title': 'Find every phone' } } } },
      },
    });
    expect(content.reasons?.[0]).toMatchObject({ reason: 'changes what visitors see' });
    expect(await versionCount()).toBe(1);
  });

  it('refuses another’s approved revision once anything is saved after it; a third person approves, the version names each', async () => {
    const head = await setUp(SPLIT_DOCUMENT);
    const approved = weighted(SPLIT_DOCUMENT, 20, 80);
    const save = (call: typeof ada, revision: number, document: ConfigDocument) =>
      fetchApp(CONSOLE_DRAFT_API.draft, {
        method: 'PUT',
        headers: {
          ...SAME_ORIGIN,
          Cookie: `${DEVELOPMENT_AUTHOR_COOKIE}=${call === ada ? 'ada' : 'bob'}@example.com`,
        },
        body: JSON.stringify({ revision, base: head, document, pausedWeights: {} }),
      });
    await save(ada, 0, approved);
    await ada(CONSOLE_DRAFT_API.review, { revision: 1 });
    await bob(CONSOLE_DRAFT_API.approve, { revision: 1 });
    // Bob adds a change of his own on top of Ada's approved one: neither is approved now.
    const extended = { ...approved, flows: { ...approved.flows } };
    extended.flows = {
      ...approved.flows,
      flows: { ...approved.flows.flows, lp1ch2: [...(DEFAULT_FLOWS.flows.lp11ch8 ?? [])] },
    };
    expect((await save(bob, 1, extended)).status).toBe(200);
    for (const [document, draft] of [
      [extended, 2],
      [approved, 1],
      [extended, 1],
    ] as const) {
      const refused = await bob(CONSOLE_API.publish, { base: head, document, draft, note: '' });
      expect((await refusal(refused)).error).toBe('approval_required');
    }
    expect(await versionCount()).toBe(1);

    // Neither of its editors may approve it now; a third person does, and the version says who
    // edited it, who asked for the review and who approved it.
    await bob(CONSOLE_DRAFT_API.review, { revision: 2, note: 'no searching anywhere' });
    for (const editor of [ada, bob]) {
      expect((await editor(CONSOLE_DRAFT_API.approve, { revision: 2 })).status).toBe(403);
    }
    expect((await carol(CONSOLE_DRAFT_API.approve, { revision: 2 })).status).toBe(200);
    const published = await bob(CONSOLE_API.publish, { base: head, document: extended, draft: 2 });
    expect(published.status).toBe(200);
    const { versions } = await get<VersionsAnswer>(CONSOLE_API.versions);
    expect(versions[0]).toMatchObject({
      author: 'bob@example.com',
      editors: ['ada@example.com', 'bob@example.com'],
      requester: 'bob@example.com',
      approver: 'carol@example.com',
      note: 'no searching anywhere',
    });
  });
});

describe('the copy, with PUBLISH_APPROVAL required', () => {
  const TITLE = 'screens.one_pager.title';

  it('is published or rolled back alone only as a break-glass', async () => {
    await setUp(withWebhook(SPLIT_DOCUMENT));
    const copy = { de: { [TITLE]: 'Finde jedes Telefon' } };
    const alone = await refusal(await ada(CONSOLE_COPY_API.publish, { base: null, copy }));
    expect(alone.reasons).toEqual([
      { path: `copy.de.${TITLE}`, reason: 'changes what visitors read' },
    ]);
    const broken = await ada(CONSOLE_COPY_API.publish, {
      base: null,
      copy,
      note: 'legal asked tonight',
      breakGlass: true,
    });
    expect(broken.status).toBe(200);
    const again = await ada(CONSOLE_COPY_API.publish, {
      base: 1,
      copy: { de: { [TITLE]: 'Jedes Telefon finden' } },
      note: 'and again',
      breakGlass: true,
    });
    expect(again.status).toBe(200);
    const rolled = await ada(CONSOLE_COPY_API.rollback, { base: 2, seq: 1, note: 'back' });
    expect((await refusal(rolled)).error).toBe('approval_required');
    const { versions } = await get<CopyVersionsAnswer>(CONSOLE_COPY_API.versions);
    expect(versions.map((v) => [v.id, v.breakGlass])).toEqual([
      ['c2', 'and again'],
      ['c1', 'legal asked tonight'],
    ]);
    expect((await breakGlassAlerts()).map((alert) => alert.key)).toEqual([
      'publishing-copy|0|break_glass|c1',
      'publishing-copy|0|break_glass|c2',
    ]);
  });
});

describe('a ramp, with PUBLISH_APPROVAL required', () => {
  const SINCE = '2026-12-01T12:00:00.000Z';
  const RAMPED = rampedAiLandingTest(SINCE);
  const ramped = (document: ConfigDocument): ConfigDocument => ({
    ...document,
    experiments: { ...document.experiments, experiments: { 'lp-ai': RAMPED } },
  });
  const move = (move: RampMoveRequest['move'], status: string, extra = {}) =>
    ada(rampMovePath('lp-ai'), {
      move,
      reason: `${move} it`,
      seen: { status, since: SINCE },
      ...extra,
    });

  it('is held alone, resumed only as a break-glass', async () => {
    await setUp(withWebhook(ramped(SPLIT_DOCUMENT)));
    expect((await move('hold', 'running')).status).toBe(200);
    const resumed = await refusal(await move('resume', 'held'));
    expect(resumed.error).toBe('approval_required');
    expect((await move('resume', 'held', { breakGlass: true })).status).toBe(200);
    const { versions } = await get<VersionsAnswer>(CONSOLE_API.versions);
    expect(versions.map((v) => [v.note, v.breakGlass])).toEqual([
      ['Ramp of lp-ai: resume: resume it', 'resume it'],
      ['Ramp of lp-ai: hold: hold it', undefined],
      ['set up', undefined],
    ]);
  });

  it('lets the engine move only its own ramp: a move that carries another change is refused', async () => {
    await setUp(ramped(SPLIT_DOCUMENT));
    const stores = {
      ...publishStoresOf(env),
      gate: { ...publishStoresOf(env).gate, required: true },
    };
    const head = (await stores.versions.head())!;
    const advanced: ExperimentDocument = {
      ...RAMPED,
      ramp: { ...RAMPED.ramp!, state: { step: 1, since: SINCE, status: 'running' } },
    };
    const engineMove = (document: ConfigDocument) =>
      publish(stores, {
        base: head.seq,
        document,
        author: 'guarded ramp',
        note: 'next step',
        source: 'ramp',
        clearance: {
          kind: 'ramp',
          subject: { kind: 'variant', experiment: 'lp-ai' },
          by: 'engine',
        },
        now: new Date(),
      });
    const sneaked = await engineMove({
      ...weighted(head.document, 1, 99),
      experiments: { ...head.document.experiments, experiments: { 'lp-ai': advanced } },
    });
    expect(sneaked.kind).toBe('approval_required');
    const honest = await engineMove({
      ...head.document,
      experiments: { ...head.document.experiments, experiments: { 'lp-ai': advanced } },
    });
    expect(honest.kind).toBe('published');
  });
});
