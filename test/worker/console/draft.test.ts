import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_MAX_BYTES } from '../../../shared/config/parse-document';
import {
  CONSOLE_API,
  type ConfigDocument,
  type ConsoleState,
  type PublishAnswer,
} from '../../../shared/console-api/config';
import {
  CONSOLE_DRAFT_API,
  type DraftAnswer,
  type DraftConflictAnswer,
  type DraftReviewAnswer,
  type DraftSavedAnswer,
} from '../../../shared/console-api/draft';
import {
  draftSaveRequest,
  publishRequest,
  rollbackRequest,
} from '../../../shared/console-api/request-schemas';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import {
  ACCESS_TOKEN_HEADER,
  accessKeySets,
  DEVELOPMENT_AUTHOR_COOKIE,
  LOCAL_AUTHOR,
} from '../../../worker/access/console-access';
import { gateOf } from '../../../worker/alerts/break-glass';
import { DEFAULT_FLOWS, DEFAULT_ROUTING } from '../../../worker/config/defaults';
import { kvLiveKeys, publish } from '../../../worker/config/publish';
import { d1Runner, versionStore } from '../../../worker/config/versions';
import { DRAFT_WRITES_PER_AUTHOR } from '../../../worker/console/draft-route';
import { freshApp, productionApp } from '../fetch-app';
import { accessClaims, NOW_MS, PRODUCTION, type Signer, teamAndStranger } from './access-tokens';
import { SPLIT_DOCUMENT as DOCUMENT } from './documents';

/**
 * The shared draft (worker/console/draft-route.ts) against the real D1: one draft for everyone
 * with console access, saved by revision, merged or refused on a stale revision, and its review:
 * with PUBLISH_APPROVAL required, a change that moves traffic or money is published only once a
 * second Access identity approved the exact revision (docs/marketers.md, "Working as a team").
 */

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

/** `document` with the split's weights given: a change that moves traffic. */
function weighted(document: ConfigDocument, main: number, other: number): ConfigDocument {
  return {
    ...document,
    split: {
      ...document.split,
      variants: { default: { weight: main, flow: 'default' }, lp1ch2: { weight: other } },
    },
  };
}

/** `document` with lp1ch2 walking `screens`: a change of flows, which moves nobody's share. */
function flowed(document: ConfigDocument, screens: string[]): ConfigDocument {
  return {
    ...document,
    flows: { ...document.flows, flows: { ...document.flows.flows, lp1ch2: screens } },
  };
}

const OTHER_FLOW = [...(DEFAULT_FLOWS.flows.lp11ch8 ?? [])];

type Call = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Response>;

function caller(
  fetchApp: (path: string, init?: RequestInit) => Promise<Response>,
  extra: () => Promise<Record<string, string>>,
): Call {
  return async (method, path, body, headers = SAME_ORIGIN) =>
    fetchApp(path, {
      method,
      headers: { ...(method === 'GET' ? {} : headers), ...(await extra()) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** The development console: everyone is the local author. */
const local = caller(freshApp(), async () => ({}));

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await response).json() as Promise<T>;
}

const save = (
  call: Call,
  revision: number,
  base: number | null,
  document: ConfigDocument,
  extra = {},
) =>
  call('PUT', CONSOLE_DRAFT_API.draft, { revision, base, document, pausedWeights: {}, ...extra });

/** Publishes `document` as the CLI does, around the console: the history's next version. */
async function publishAround(document: ConfigDocument, base: number | null) {
  const stores = {
    versions: versionStore(d1Runner(env.CONFIG_DB)),
    live: kvLiveKeys(env.FUNNEL_CONFIG),
    gate: gateOf(env),
  };
  const outcome = await publish(stores, {
    base,
    document,
    author: 'cli@example.com',
    note: 'around the console',
    source: 'cli',
    now: new Date(NOW_MS),
  });
  expect(outcome.kind).toBe('published');
}

const draftRows = async () =>
  env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM console_draft_revisions').first<number>('n');

beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM config_versions');
  await env.CONFIG_DB.exec('DELETE FROM console_draft_revisions');
  for (const key of ['split', 'flows', 'routing', 'experiments', 'content'])
    await env.FUNNEL_CONFIG.delete(key);
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await publishAround(DOCUMENT, null);
});
afterEach(() => vi.restoreAllMocks());

describe('one draft for the whole console', () => {
  it('is empty until someone saves, then every browser reads the saved revision', async () => {
    expect(await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft))).toEqual({
      ok: true,
      draft: null,
      approvalRequired: false,
    });
    const saved = await save(local, 0, 1, weighted(DOCUMENT, 20, 80));
    expect(saved.status).toBe(200);
    const { draft } = await json<DraftSavedAnswer>(saved);
    expect(draft).toMatchObject({ revision: 1, base: 1, editors: [LOCAL_AUTHOR], review: null });
    const read = await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft));
    expect(read.draft).toEqual(draft);
    expect(read.draft?.document.split.variants.default?.weight).toBe(20);
  });

  it('merges a save made on an older revision when the edits touch different places', async () => {
    await save(local, 0, 1, weighted(DOCUMENT, 20, 80));
    // Someone else, from revision 1, changes the flows; then you, from revision 1 too, a route.
    await save(local, 1, 1, flowed(weighted(DOCUMENT, 20, 80), OTHER_FLOW));
    const yours = {
      ...weighted(DOCUMENT, 20, 80),
      routing: { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow: 'lp1ch2' }] },
    };
    const answer = await json<DraftSavedAnswer>(save(local, 1, 1, yours));
    expect(answer.draft.revision).toBe(3);
    expect(answer.draft.document.flows.flows.lp1ch2).toEqual(OTHER_FLOW);
    expect(answer.draft.document.routing.routes).toEqual([{ id: 'default', flow: 'lp1ch2' }]);
    expect(answer.merged).toEqual([
      expect.objectContaining({ path: 'flows.flows.lp1ch2', after: OTHER_FLOW }),
    ]);
  });

  it('merges the routes entry by entry, by id', async () => {
    const [tiktok, main] = [
      { id: 'tiktok', flow: 'lp1ch2' },
      { id: 'default', flow: 'default' },
    ];
    const routes = [tiktok, main];
    const start = { ...DOCUMENT, routing: { ...DEFAULT_ROUTING, routes } };
    await save(local, 0, 1, start);
    const paused = [{ ...tiktok, paused: true }, main];
    await save(local, 1, 1, { ...start, routing: { ...DEFAULT_ROUTING, routes: paused } });
    const reflowed = [tiktok, { id: 'default', flow: 'lp1ch2' }];
    const answer = await json<DraftSavedAnswer>(
      save(local, 1, 1, { ...start, routing: { ...DEFAULT_ROUTING, routes: reflowed } }),
    );
    expect(answer.draft.document.routing.routes).toEqual([
      { id: 'tiktok', flow: 'lp1ch2', paused: true },
      { id: 'default', flow: 'lp1ch2' },
    ]);
  });

  it('refuses a stale save changing what another changed, with their change, until you keep yours', async () => {
    await save(local, 0, 1, weighted(DOCUMENT, 20, 80));
    await save(local, 1, 1, weighted(DOCUMENT, 30, 70));
    const refused = await save(local, 1, 1, flowed(weighted(DOCUMENT, 90, 10), OTHER_FLOW));
    expect(refused.status).toBe(409);
    const conflict = await json<DraftConflictAnswer>(refused);
    expect(conflict).toMatchObject({
      ok: false,
      error: 'draft_conflict',
      draft: { revision: 2 },
      clashes: ['split.variants.default.weight', 'split.variants.lp1ch2.weight'],
    });
    expect(conflict.theirs.map((change) => [change.path, change.after])).toEqual([
      ['split.variants.default.weight', 30],
      ['split.variants.lp1ch2.weight', 70],
    ]);
    expect(await draftRows()).toBe(2);

    // "Keep mine": merged again, your values where both changed.
    const kept = await json<DraftSavedAnswer>(
      save(local, 1, 1, flowed(weighted(DOCUMENT, 90, 10), OTHER_FLOW), { keepMine: true }),
    );
    expect(kept.draft.revision).toBe(3);
    expect(kept.draft.document.split.variants.default?.weight).toBe(90);
    expect(kept.draft.document.flows.flows.lp1ch2).toEqual(OTHER_FLOW);
  });

  it('refuses an oversized draft, a body that is not a draft, a write from another site', async () => {
    const huge = {
      ...DOCUMENT,
      content: { screens: { one_pager: { notes: 'x'.repeat(CONFIG_MAX_BYTES) } } },
    };
    const tooLarge = await save(local, 0, 1, huge as unknown as ConfigDocument);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ ok: false, error: 'draft_too_large' });
    const partial = await local('PUT', CONSOLE_DRAFT_API.draft, {
      revision: 0,
      base: 1,
      document: { split: {} },
    });
    expect(partial.status).toBe(400);
    expect((await save(local, 0, 1, DOCUMENT)).status).toBe(200);
    // From another site, or as a form could send it: refused before the draft is read.
    const refusals: [Record<string, string>, number, string][] = [
      [{ 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' }, 403, 'cross_origin'],
      [{ 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/plain' }, 415, 'bad_request'],
    ];
    for (const [headers, status, error] of refusals) {
      const body = { revision: 1, base: 1, document: weighted(DOCUMENT, 1, 99), pausedWeights: {} };
      const refused = await local('PUT', CONSOLE_DRAFT_API.draft, body, headers);
      expect([refused.status, await refused.json()]).toEqual([status, { ok: false, error }]);
    }
    expect(await draftRows()).toBe(1);
  });

  it('saves a body its documented schema takes, and refuses one it does not', async () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 10]));
    const bodies: unknown[] = [
      { revision: 0, base: 1, document: { ...DOCUMENT, extra: {} }, pausedWeights: {} },
      { revision: 0, base: 1, document: DOCUMENT, pausedWeights: many },
      { revision: 0, base: 1, document: DOCUMENT, pausedWeights: { ['x'.repeat(65)]: 10 } },
      { revision: -1, base: 1, document: DOCUMENT },
      { revision: 0, base: 1, document: { ...DOCUMENT, split: [] } },
    ];
    for (const body of bodies) {
      expect(draftSaveRequest.safeParse(body).success).toBe(false);
      const refused = await local('PUT', CONSOLE_DRAFT_API.draft, body);
      expect([refused.status, await refused.json()]).toEqual([
        400,
        { ok: false, error: 'bad_request' },
      ]);
    }
    expect(await draftRows()).toBe(0);
    // No pauses named: none, as the document's default says.
    const saved = await local('PUT', CONSOLE_DRAFT_API.draft, {
      revision: 0,
      base: 1,
      document: DOCUMENT,
    });
    expect(saved.status).toBe(200);
    expect((await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft))).draft).toMatchObject({
      revision: 1,
      pausedWeights: {},
    });
  });

  it('starts again from the new version once published, and records the revision’s approval', async () => {
    await save(local, 0, 1, weighted(DOCUMENT, 20, 80));
    const published = await local('POST', CONSOLE_API.publish, {
      base: 1,
      document: weighted(DOCUMENT, 20, 80),
      note: 'more to lp1ch2',
      draft: 1,
    });
    expect(published.status).toBe(200);
    const { version } = await json<PublishAnswer>(published);
    expect(version).not.toHaveProperty('approver');
    const { draft } = await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft));
    const live = await json<ConsoleState>(local('GET', CONSOLE_API.state));
    expect(draft).toMatchObject({ revision: 2, base: 2, editors: [], review: null });
    expect(JSON.stringify(draft?.document)).toBe(JSON.stringify(live.live));
  });

  it('starts again from the version a roll back from the draft publishes', async () => {
    await save(local, 0, 1, weighted(DOCUMENT, 20, 80));
    const rolled = await local('POST', CONSOLE_API.rollback, { base: 1, seq: 1, draft: 1 });
    expect(rolled.status).toBe(200);
    const { draft } = await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft));
    expect(draft).toMatchObject({ revision: 2, base: 2, editors: [] });
    expect(draft?.document.split.variants.default?.weight).toBe(50);
  });

  it('refuses a check, publish or rollback its documented schema refuses, a bad document by its paths', async () => {
    const shaped: [string, unknown][] = [
      [CONSOLE_API.check, { base: 'one', document: DOCUMENT }],
      [CONSOLE_API.publish, { base: 1, document: DOCUMENT, note: 5 }],
      [CONSOLE_API.publish, { base: 1, document: DOCUMENT, draft: 0 }],
      [CONSOLE_API.rollback, { base: 1, seq: 0 }],
      [CONSOLE_API.rollback, { base: 1, seq: 1, breakGlass: 'yes' }],
    ];
    for (const [path, body] of shaped) {
      const schema = path === CONSOLE_API.rollback ? rollbackRequest : publishRequest;
      expect(schema.safeParse(body).success).toBe(false);
      const refused = await local('POST', path, body);
      expect({ path, status: refused.status, body: await refused.json() }).toEqual({
        path,
        status: 400,
        body: { ok: false, error: 'bad_request' },
      });
    }
    // A document is the config's rules' to refuse, field by field, as before.
    const invalid = await local('POST', CONSOLE_API.publish, { base: 1, document: { split: 1 } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      error: 'invalid_config',
      errors: expect.any(Array),
    });
    expect((await json<VersionsAnswer>(local('GET', CONSOLE_API.versions))).versions).toHaveLength(
      1,
    );
  });

  it('shows a draft started before a publish around the console on the new version, its edits kept', async () => {
    await save(local, 0, 1, flowed(DOCUMENT, OTHER_FLOW));
    await publishAround(weighted(DOCUMENT, 20, 80), 1);
    const { draft } = await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft));
    expect(draft).toMatchObject({ revision: 1, base: 2 });
    expect(draft?.document.split.variants.default?.weight).toBe(20);
    expect(draft?.document.flows.flows.lp1ch2).toEqual(OTHER_FLOW);
  });

  it('merges the saves of two browsers that opened the draft after a publish around it', async () => {
    await save(local, 0, 1, DOCUMENT);
    await publishAround(weighted(DOCUMENT, 20, 80), 1);
    // Both browsers are shown revision 1 on version 2; one changes a weight, the other a route.
    const { draft: shown } = await json<DraftAnswer>(local('GET', CONSOLE_DRAFT_API.draft));
    expect(shown).toMatchObject({ revision: 1, base: 2 });
    const view = shown!.document;
    await save(local, 1, 2, weighted(view, 10, 90));
    const routing = { ...view.routing, routes: [{ id: 'default', flow: 'lp1ch2' }] };
    const answer = await save(local, 1, 2, { ...view, routing });
    expect(answer.status).toBe(200);
    const { draft } = await json<DraftSavedAnswer>(answer);
    expect(draft).toMatchObject({ revision: 3, base: 2 });
    expect(draft.document.split.variants.default?.weight).toBe(10);
    expect(draft.document.routing.routes).toEqual([{ id: 'default', flow: 'lp1ch2' }]);
  });
});

describe('a review before publishing, with PUBLISH_APPROVAL required', () => {
  let team: Signer;
  beforeAll(async () => {
    ({ team } = await teamAndStranger());
  });

  /** The production console as `email`, behind the team's Access. */
  function as(
    email: string,
    bindings: Record<string, string> = { PUBLISH_APPROVAL: 'required' },
  ): Call {
    const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
    const fetchApp = productionApp(
      { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
      { ...PRODUCTION, ...bindings },
    );
    return caller(fetchApp, async () => ({
      [ACCESS_TOKEN_HEADER]: await team.sign(accessClaims({ email })),
    }));
  }

  const publishFrom = (call: Call, document: ConfigDocument, draft?: number) =>
    call('POST', CONSOLE_API.publish, {
      base: 1,
      document,
      note: 'shift to lp1ch2',
      ...(draft ? { draft } : {}),
    });

  it('publishes a change of weights only once another person approved the exact revision', async () => {
    const [ada, bob] = [as('ada@example.com'), as('bob@example.com')];
    const edited = weighted(DOCUMENT, 20, 80);
    expect((await json<DraftAnswer>(ada('GET', CONSOLE_DRAFT_API.draft))).approvalRequired).toBe(
      true,
    );
    await save(ada, 0, 1, edited);
    expect((await publishFrom(ada, edited, 1)).status).toBe(403);

    // A note is trimmed and its first 500 characters kept, as the API's schema says.
    const note = `  please look ${'at the weights '.repeat(40)}`;
    const asked = await ada('POST', CONSOLE_DRAFT_API.review, { revision: 1, note });
    expect((await json<DraftReviewAnswer>(asked)).draft.review).toMatchObject({
      requestedBy: 'ada@example.com',
      note: note.trim().slice(0, 500),
    });
    // The author cannot approve, whatever the body says of the approver.
    const own = await ada('POST', CONSOLE_DRAFT_API.approve, {
      revision: 1,
      approvedBy: 'bob@example.com',
    });
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({ ok: false, error: 'own_draft' });
    const approved = await bob('POST', CONSOLE_DRAFT_API.approve, {
      revision: 1,
      approvedBy: 'mallory@example.com',
    });
    expect((await json<DraftReviewAnswer>(approved)).draft.review?.approvedBy).toBe(
      'bob@example.com',
    );

    // Not without naming the approved revision, nor with another document under its number.
    const bare = await publishFrom(ada, edited);
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({
      ok: false,
      error: 'approval_required',
      reasons: [
        { path: 'split.variants.default.weight', reason: 'moves traffic' },
        { path: 'split.variants.lp1ch2.weight', reason: 'moves traffic' },
      ],
    });
    expect((await publishFrom(ada, weighted(DOCUMENT, 5, 95), 1)).status).toBe(403);
    const versionsBefore = await env.CONFIG_DB.prepare(
      'SELECT COUNT(*) AS n FROM config_versions',
    ).first('n');
    expect(versionsBefore).toBe(1);

    const published = await publishFrom(ada, edited, 1);
    expect(published.status).toBe(200);
    expect((await json<PublishAnswer>(published)).version).toMatchObject({
      author: 'ada@example.com',
      approver: 'bob@example.com',
      note: 'shift to lp1ch2',
    });
    const history = await json<VersionsAnswer>(ada('GET', CONSOLE_API.versions));
    expect(history.versions.map((v) => [v.id, v.author, v.approver])).toEqual([
      ['v2', 'ada@example.com', 'bob@example.com'],
      ['v1', 'cli@example.com', undefined],
    ]);
  });

  it('voids an approval with any later edit, and refuses it replayed on the changed draft', async () => {
    const [ada, bob] = [as('ada@example.com'), as('bob@example.com')];
    await save(ada, 0, 1, weighted(DOCUMENT, 20, 80));
    await ada('POST', CONSOLE_DRAFT_API.review, { revision: 1 });
    await bob('POST', CONSOLE_DRAFT_API.approve, { revision: 1 });
    const changed = weighted(DOCUMENT, 1, 99);
    const { draft } = await json<DraftSavedAnswer>(save(ada, 1, 1, changed));
    expect(draft).toMatchObject({ revision: 2, review: null });
    expect((await publishFrom(ada, changed, 2)).status).toBe(403);
    expect((await publishFrom(ada, changed, 1)).status).toBe(403);
    expect((await publishFrom(ada, weighted(DOCUMENT, 20, 80), 1)).status).toBe(403);
    // An approval of the old revision is refused too: it is no longer the draft.
    const stale = await bob('POST', CONSOLE_DRAFT_API.approve, { revision: 1 });
    expect(stale.status).toBe(409);
    expect(
      await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM config_versions').first('n'),
    ).toBe(1);
  });

  it('records the review’s note on a version published without one', async () => {
    const [ada, bob] = [as('ada@example.com'), as('bob@example.com')];
    const edited = weighted(DOCUMENT, 20, 80);
    await save(ada, 0, 1, edited);
    await ada('POST', CONSOLE_DRAFT_API.review, { revision: 1, note: 'lp1ch2 wins' });
    await bob('POST', CONSOLE_DRAFT_API.approve, { revision: 1 });
    const published = await ada('POST', CONSOLE_API.publish, {
      base: 1,
      document: edited,
      draft: 1,
    });
    expect((await json<PublishAnswer>(published)).version).toMatchObject({
      note: 'lp1ch2 wins',
      approver: 'bob@example.com',
    });
  });

  it('lets nobody who edited the draft approve it', async () => {
    const [ada, bob] = [as('ada@example.com'), as('bob@example.com')];
    await save(ada, 0, 1, weighted(DOCUMENT, 20, 80));
    await save(bob, 1, 1, flowed(weighted(DOCUMENT, 20, 80), OTHER_FLOW));
    await ada('POST', CONSOLE_DRAFT_API.review, { revision: 2 });
    const refused = await bob('POST', CONSOLE_DRAFT_API.approve, { revision: 2 });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ ok: false, error: 'own_draft' });
  });

  it('holds a change of flows for approval too, and publishes anything when it is off', async () => {
    const ada = as('ada@example.com');
    const flows = await publishFrom(ada, flowed(DOCUMENT, OTHER_FLOW));
    expect(flows.status).toBe(403);
    expect(await flows.json()).toMatchObject({
      reasons: [{ path: 'flows.flows.lp1ch2', reason: 'changes what visitors see' }],
    });
    const unrestricted = as('ada@example.com', {});
    expect((await publishFrom(unrestricted, flowed(DOCUMENT, OTHER_FLOW))).status).toBe(200);
    const moved = await unrestricted('POST', CONSOLE_API.publish, {
      base: 2,
      document: weighted(flowed(DOCUMENT, OTHER_FLOW), 20, 80),
    });
    expect(moved.status).toBe(200);
  });

  it('stops a burst of saves', async () => {
    const flood = as('flood@example.com');
    const statuses: number[] = [];
    const { limit } = DRAFT_WRITES_PER_AUTHOR;
    for (let i = 0; i < limit; i++) statuses.push((await save(flood, 0, 1, DOCUMENT)).status);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    const last = await save(flood, 0, 1, DOCUMENT);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('two people under npm start', () => {
  it('takes a browser for the name it chose with ?as=, in development only', async () => {
    const chosen = await freshApp()('/console?as=bob@example.com');
    expect(chosen.status).toBe(303);
    const cookie = chosen.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^gf_console_as=bob%40example\.com; .*Path=\/console/);
    const bob = caller(freshApp(), async () => ({
      Cookie: `${DEVELOPMENT_AUTHOR_COOKIE}=bob@example.com`,
    }));
    expect((await json<ConsoleState>(bob('GET', CONSOLE_API.state))).author).toBe(
      'bob@example.com',
    );
    expect((await json<ConsoleState>(local('GET', CONSOLE_API.state))).author).toBe(LOCAL_AUTHOR);
    expect((await freshApp()('/console?as=not an address')).status).toBe(400);
  });

  it('ignores the chosen name outside development: the author is Access’s', async () => {
    const { team } = await teamAndStranger();
    const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
    const fetchApp = productionApp(
      { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
      PRODUCTION,
    );
    const ada = caller(fetchApp, async () => ({
      [ACCESS_TOKEN_HEADER]: await team.sign(accessClaims({ email: 'ada@example.com' })),
      Cookie: `${DEVELOPMENT_AUTHOR_COOKIE}=mallory@example.com`,
    }));
    expect((await json<ConsoleState>(ada('GET', CONSOLE_API.state))).author).toBe(
      'ada@example.com',
    );
    const page = await ada('GET', '/console?as=mallory@example.com');
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
  });
});
