import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import { CONFIG_MAX_BYTES } from '../../../shared/config/parse-document';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import type {
  CheckAnswer,
  ConfigDocument,
  ConsoleState,
  PublishAnswer,
} from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { ConflictAnswer, InvalidAnswer } from '../../../shared/console-api/errors';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import { LOCAL_AUTHOR } from '../../../worker/access/console-access';
import { gateOf } from '../../../worker/alerts/break-glass';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../../worker/config/defaults';
import { kvLiveKeys, publish } from '../../../worker/config/publish';
import { d1Runner, versionStore } from '../../../worker/config/versions';
import { unsigned } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import { SPLIT_DOCUMENT as DOCUMENT } from './documents';

/**
 * The console's publish, conflict, rollback and history against the real KV and D1 (SPEC.md §4:
 * the split, flows, routes and experiments the edge reads), through the development worker, where
 * the console is open with the local author.
 */

const fetchApp = freshApp({ random: () => 0.5 });

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

function post(path: string, body: unknown, headers: Record<string, string> = SAME_ORIGIN) {
  return fetchApp(path, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function state(): Promise<ConsoleState> {
  return (await fetchApp(CONSOLE_API.state)).json();
}

/** The KV values byte for byte, and how many versions the history holds. */
async function stored() {
  const versions = await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM config_versions').first<{
    n: number;
  }>('n');
  return {
    split: await env.FUNNEL_CONFIG.get('split', 'text'),
    flows: await env.FUNNEL_CONFIG.get('flows', 'text'),
    experiments: await env.FUNNEL_CONFIG.get('experiments', 'text'),
    versions,
  };
}

/**
 * DOCUMENT's split draws default and lp1ch2, whose flows SPEC.md §2 gives the same screens: the
 * review says so on every check of it, and publishes all the same.
 */
const SAME_FLOWS_WARNING = {
  path: 'split.variants.lp1ch2.flow',
  message:
    'walks the same screens as variant "default" (flows "default" and "lp1ch2"): the split tests nothing between them; give one another flow, or keep it as an A/A test on purpose',
};

/** A landing test on the default route, running: the control and the all-in-one landing. */
const LANDING_TEST: ExperimentDocument = {
  name: 'All-in-one landing',
  status: 'running',
  layer: 'landing',
  audience: { routes: ['default'] },
  coverage: 1,
  seed: 'landing-all',
  control: 'a',
  variants: {
    a: { weight: 1, change: {} },
    b: { weight: 1, change: { screens: { landing: 'one_pager_all' } } },
  },
};

/** DOCUMENT with these experiments. */
function withExperiments(experiments: Record<string, ExperimentDocument>): ConfigDocument {
  return { ...DOCUMENT, experiments: { version: 'draft', experiments } };
}

/** DOCUMENT with the weights given. */
function weighted(defaultWeight: number, lp1ch2Weight: number): ConfigDocument {
  return {
    ...DOCUMENT,
    split: {
      ...DOCUMENT.split,
      variants: {
        default: { weight: defaultWeight, flow: 'default' },
        lp1ch2: { weight: lp1ch2Weight },
      },
    },
  };
}

let logs: string[];
beforeEach(async () => {
  // Each test starts from nothing published (before-each-file.ts empties storage per file only).
  await env.CONFIG_DB.exec('DELETE FROM config_versions');
  for (const key of ['split', 'flows', 'routing', 'experiments'])
    await env.FUNNEL_CONFIG.delete(key);
  logs = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void logs.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void logs.push(line));
});
afterEach(() => vi.restoreAllMocks());

const publishedLines = () =>
  logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === 'config_published');

describe('the console before anything is published', () => {
  it('shows what the edge reads (the defaults in code), the local author and a preview per variant', async () => {
    const response = await fetchApp(CONSOLE_API.state);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const current = (await response.json()) as ConsoleState;
    expect(current).toMatchObject({
      author: LOCAL_AUTHOR,
      head: null,
      live: {
        split: DEFAULT_SPLIT,
        flows: DEFAULT_FLOWS,
        routing: DEFAULT_ROUTING,
        experiments: DEFAULT_EXPERIMENTS,
        content: EMPTY_CONTENT,
      },
      previews: { default: '/console/preview/default' },
    });
    expect(current.drift).toMatch(/KV key "split" is absent/);
    // No routes and no experiments yet is how every project starts, nothing to warn of.
    expect(current.drift).not.toMatch(/routing|experiments/);
    expect(current.screens.map((screen) => screen.id)).toContain('checkout_v3_tr');
    expect(current.screens.find((screen) => screen.id === 'one_pager')?.kind).toBe('landing');
  });
});

describe('publishing', () => {
  it('writes KV and the history, stamps the version the pages then carry, and logs one line', async () => {
    const response = await post(CONSOLE_API.publish, {
      base: null,
      document: DOCUMENT,
      note: 'first split',
    });
    expect(response.status).toBe(200);
    const { version } = (await response.json()) as PublishAnswer;
    expect(version).toMatchObject({
      seq: 1,
      id: 'v1',
      author: LOCAL_AUTHOR,
      note: 'first split',
      base: null,
      phase: 1,
      source: 'console',
    });
    const kv = await stored();
    expect(JSON.parse(kv.split!)).toEqual({ ...DOCUMENT.split, version: 'v1', phase: 1 });
    expect(JSON.parse(kv.flows!)).toEqual({ ...DOCUMENT.flows, version: 'v1' });
    expect(kv.versions).toBe(1);
    expect((await state()).head).toEqual(version);
    expect((await state()).drift).toBeNull();

    const page = await (await fetchApp('/')).text();
    expect(page).toContain('"configVersion":"v1+v1"');
    expect(publishedLines()).toEqual([
      expect.objectContaining({
        version: 'v1',
        author: LOCAL_AUTHOR,
        source: 'console',
        base: null,
      }),
    ]);
  });

  it('a fresh visitor is then drawn by the new weights', async () => {
    await post(CONSOLE_API.publish, { base: null, document: weighted(0, 100) });
    const first = await fetchApp('/');
    expect(unsigned(setCookies(first).get('gf_variant'))).toBe('lp1ch2');
    await post(CONSOLE_API.publish, { base: 1, document: weighted(100, 0) });
    const second = await fetchApp('/');
    expect(unsigned(setCookies(second).get('gf_variant'))).toBe('default');
  });

  it('the review says what would change and whether a new phase starts, writing nothing', async () => {
    await post(CONSOLE_API.publish, { base: null, document: DOCUMENT });
    const before = await stored();
    const response = await post(CONSOLE_API.check, { base: 1, document: weighted(20, 80) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      diff: [
        { path: 'split.variants.default.weight', kind: 'changed', before: 50, after: 20 },
        { path: 'split.variants.lp1ch2.weight', kind: 'changed', before: 50, after: 80 },
      ],
      phase: { from: 1, to: 2, reason: 'the shares change: default 50% → 20%, lp1ch2 50% → 80%' },
      experimentPhases: [],
      warnings: [SAME_FLOWS_WARNING],
      // Weights move traffic: where PUBLISH_APPROVAL is required, a second person approves them.
      approval: {
        required: false,
        reasons: [
          { path: 'split.variants.default.weight', reason: 'moves traffic' },
          { path: 'split.variants.lp1ch2.weight', reason: 'moves traffic' },
        ],
      },
    });
    expect(await stored()).toEqual(before);
  });

  it('the review warns of split variants walking the same screens, not of one variant paused', async () => {
    const paused = {
      ...DOCUMENT,
      split: { ...DOCUMENT.split, variants: { ...DOCUMENT.split.variants, lp1ch2: { weight: 0 } } },
    };
    const other = {
      ...DOCUMENT,
      flows: {
        ...DOCUMENT.flows,
        flows: { ...DOCUMENT.flows.flows, lp1ch2: [...(DEFAULT_FLOWS.flows.lp11ch8 ?? [])] },
      },
    };
    const warningsOf = async (document: ConfigDocument) =>
      ((await (await post(CONSOLE_API.check, { base: null, document })).json()) as CheckAnswer)
        .warnings;
    expect(await warningsOf(DOCUMENT)).toEqual([SAME_FLOWS_WARNING]);
    expect(await warningsOf(paused)).toEqual([]);
    expect(await warningsOf(other)).toEqual([]);
  });

  it('the review warns of a route an earlier one catches whole, and the publish still goes through', async () => {
    const document: ConfigDocument = {
      ...DOCUMENT,
      routing: {
        version: 'draft',
        audiences: {
          tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
          tiktok_de: {
            groups: [
              [
                { attribute: 'source', operator: 'in', values: ['tiktok'] },
                { attribute: 'country', operator: 'in', values: ['DE'] },
              ],
            ],
          },
        },
        routes: [
          { id: 'tiktok', audience: 'tiktok', flow: 'lp1ch2' },
          { id: 'tiktok_de', audience: 'tiktok_de', flow: 'lp1ch2' },
          { id: 'default', flow: 'default' },
        ],
      },
    };
    const response = await post(CONSOLE_API.check, { base: null, document });
    expect(response.status).toBe(200);
    expect(((await response.json()) as CheckAnswer).warnings).toEqual([
      {
        path: 'routing.routes.1',
        message:
          'never takes a visitor: route "tiktok" before it already takes everyone its audience "tiktok_de" matches',
      },
      SAME_FLOWS_WARNING,
    ]);
    expect((await post(CONSOLE_API.publish, { base: null, document })).status).toBe(200);
  });

  it('before anything is published, the review refuses a base naming a version, as the publish does', async () => {
    const before = await stored();
    const refusals = [];
    for (const path of [CONSOLE_API.check, CONSOLE_API.publish]) {
      const response = await post(path, { base: 3, document: DOCUMENT });
      expect(response.status).toBe(400);
      refusals.push(await response.json());
    }
    expect(refusals[0]).toEqual({
      ok: false,
      error: 'invalid_config',
      errors: [{ path: 'base', message: 'names no published version' }],
    });
    expect(refusals[1]).toEqual(refusals[0]);
    expect(await stored()).toEqual(before);
    // From nothing (base null) the same document is reviewed as usual.
    expect((await post(CONSOLE_API.check, { base: null, document: DOCUMENT })).status).toBe(200);
  });

  it('a second publish from the same base is refused with what changed, and KV keeps the first', async () => {
    await post(CONSOLE_API.publish, { base: null, document: DOCUMENT });
    // Two marketers opened the console at v1; the first publishes new weights.
    expect((await post(CONSOLE_API.publish, { base: 1, document: weighted(30, 70) })).status).toBe(
      200,
    );
    const after = await stored();

    const late = await post(CONSOLE_API.publish, { base: 1, document: weighted(90, 10) });
    expect(late.status).toBe(409);
    const answer = (await late.json()) as ConflictAnswer;
    expect(answer).toMatchObject({
      ok: false,
      error: 'version_conflict',
      head: { id: 'v2', base: 1 },
    });
    expect(answer.changes).toEqual([
      { path: 'split.variants.default.weight', kind: 'changed', before: 50, after: 30 },
      { path: 'split.variants.lp1ch2.weight', kind: 'changed', before: 50, after: 70 },
    ]);
    expect(await stored()).toEqual(after);
  });

  it('two publishes racing from the same base: exactly one is written', async () => {
    const answers = await Promise.all([
      post(CONSOLE_API.publish, { base: null, document: weighted(10, 90) }),
      post(CONSOLE_API.publish, { base: null, document: weighted(90, 10) }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const kv = await stored();
    expect(kv.versions).toBe(1);
    const winner = (await answers.find((a) => a.status === 200)!.json()) as PublishAnswer;
    expect(JSON.parse(kv.split!).version).toBe(winner.version.id);
  });
});

describe('refused documents leave KV and the history byte for byte as they were', () => {
  const oversized = (): ConfigDocument => ({
    ...DOCUMENT,
    flows: {
      version: 'draft',
      flows: {
        ...DOCUMENT.flows.flows,
        // Each flow name a different long string: the document passes every rule but the cap.
        ...Object.fromEntries(
          Array.from({ length: 90 }, (_, i) => [`f${i}${'x'.repeat(800)}`, ['one_pager']]),
        ),
      },
    },
  });
  it.each<[string, unknown, string]>([
    ['weights adding up to 0', weighted(0, 0), 'split.variants'],
    [
      'a non-finite weight',
      '{"base":1,"document":{"split":{"version":"d","defaultVariant":"default","variants":{"default":{"weight":1e400}}},"flows":{"version":"d","flows":{"default":["one_pager"]}},"routing":{"version":"d","audiences":{},"routes":[{"id":"default","flow":"default"}]},"experiments":{"version":"d","experiments":{}},"content":{"screens":{}}}}',
      'split.variants.default.weight',
    ],
    [
      'an unknown screen',
      {
        ...DOCUMENT,
        flows: { version: 'd', flows: { ...DOCUMENT.flows.flows, lp1ch2: ['one_pager', 'nope'] } },
      },
      'flows.flows.lp1ch2.1',
    ],
    [
      'a variant whose flow does not exist',
      { ...DOCUMENT, flows: { version: 'd', flows: { default: ['one_pager'] } } },
      'split.variants.lp1ch2.flow',
    ],
    [
      'no default flow',
      {
        ...DOCUMENT,
        split: { ...DOCUMENT.split, variants: { lp1ch2: { weight: 1 } }, defaultVariant: 'lp1ch2' },
        flows: { version: 'd', flows: { lp1ch2: ['one_pager'] } },
      },
      'flows.flows',
    ],
    ['a document over the size cap', oversized(), 'flows'],
    ['a document that is not one', [1, 2], ''],
  ])('%s', async (_name, document, field) => {
    await post(CONSOLE_API.publish, { base: null, document: DOCUMENT });
    const before = await stored();
    const body =
      typeof document === 'string' ? document : { base: 1, document, note: 'should not land' };
    for (const path of [CONSOLE_API.check, CONSOLE_API.publish]) {
      const response = await post(path, body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as InvalidAnswer;
      expect(answer.error).toBe('invalid_config');
      expect(answer.errors.map((error) => error.path)).toContain(field);
      expect(answer.errors.every((error) => error.message.length > 0)).toBe(true);
    }
    expect(await stored()).toEqual(before);
  });

  it('the size cap is the one KV documents are read with, to the byte', async () => {
    // DOCUMENT's flows padded (with one long flow name) to exactly `bytes` as stored; already
    // stamped v1, so the first publish stores it unchanged.
    const flowsOfBytes = (bytes: number): ConfigDocument['flows'] => {
      const padded = (name: string) => ({
        version: 'v1',
        flows: { ...DOCUMENT.flows.flows, [name]: ['one_pager' as const] },
      });
      return padded(`p${'x'.repeat(bytes - JSON.stringify(padded('p')).length)}`);
    };
    const overCap = flowsOfBytes(CONFIG_MAX_BYTES + 1);
    const atCap = flowsOfBytes(CONFIG_MAX_BYTES);
    // An app of its own: no earlier test's flows as its last good copy.
    const edge = freshApp();
    const pageConfigVersion = async () =>
      /"configVersion":"([^"]+)"/.exec(await (await edge('/')).text())?.[1];

    // A byte over, written to KV around the console: the edge ignores it for the defaults...
    await env.FUNNEL_CONFIG.put('flows', JSON.stringify(overCap));
    expect(await pageConfigVersion()).toBe(`${DEFAULT_SPLIT.version}+${DEFAULT_FLOWS.version}`);
    // ...and the publish refuses it, naming the section, and writes nothing.
    const before = await stored();
    const refused = await post(CONSOLE_API.publish, {
      base: null,
      document: { ...DOCUMENT, flows: overCap },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      { path: 'flows', message: `larger than ${CONFIG_MAX_BYTES} bytes` },
    ]);
    expect(await stored()).toEqual(before);

    // Exactly at the cap, both take it.
    const accepted = await post(CONSOLE_API.publish, {
      base: null,
      document: { ...DOCUMENT, flows: atCap },
    });
    expect(accepted.status).toBe(200);
    expect((await stored()).flows).toBe(JSON.stringify(atCap));
    expect(await pageConfigVersion()).toBe('v1+v1');
  });
});

describe('rollback and history', () => {
  it('publishes the earlier document again as a new version; the history lists all, newest first', async () => {
    await post(CONSOLE_API.publish, { base: null, document: DOCUMENT, note: 'even' });
    const v1 = await stored();
    await post(CONSOLE_API.publish, { base: 1, document: weighted(10, 90), note: 'push lp1ch2' });

    const response = await post(CONSOLE_API.rollback, { base: 2, seq: 1, note: '' });
    expect(response.status).toBe(200);
    const { version } = (await response.json()) as PublishAnswer;
    expect(version).toMatchObject({ id: 'v3', base: 2, source: 'rollback', restores: 1, phase: 3 });
    expect(version.note).toBe('roll back to v1');
    const kv = await stored();
    // The restored weights start phase 3, stamped as beginning now (what the holdout reads).
    const { version: _v, phase: _p, since, ...restoredSplit } = JSON.parse(kv.split!);
    expect(since).toBe(version.at);
    const { version: _v1, phase: _p1, ...firstSplit } = JSON.parse(v1.split!);
    expect(restoredSplit).toEqual(firstSplit);

    const history = (await (await fetchApp(CONSOLE_API.versions)).json()) as VersionsAnswer;
    expect(history.versions.map((v) => [v.id, v.phase, v.note])).toEqual([
      ['v3', 3, 'roll back to v1'],
      ['v2', 2, 'push lp1ch2'],
      ['v1', 1, 'even'],
    ]);
    expect(history.versions[1]!.diff).toEqual([
      { path: 'split.variants.default.weight', kind: 'changed', before: 50, after: 10 },
      { path: 'split.variants.lp1ch2.weight', kind: 'changed', before: 50, after: 90 },
    ]);
    // The first version adds everything.
    expect(history.versions[2]!.diff.map((change) => [change.path, change.kind])).toEqual([
      ['split', 'added'],
      ['flows', 'added'],
      ['routing', 'added'],
      ['experiments', 'added'],
    ]);
  });

  it('rolling back to a version that does not exist is a 404, and a stale base a conflict', async () => {
    await post(CONSOLE_API.publish, { base: null, document: DOCUMENT });
    await post(CONSOLE_API.publish, { base: 1, document: weighted(1, 3) });
    expect((await post(CONSOLE_API.rollback, { base: 2, seq: 7 })).status).toBe(404);
    expect((await post(CONSOLE_API.rollback, { base: 1, seq: 1 })).status).toBe(409);
  });
});

describe('writes come from the console page only', () => {
  it.each<[string, Record<string, string>]>([
    ['another site', { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' }],
    ['another origin', { Origin: 'https://evil.test', 'Content-Type': 'application/json' }],
    ['neither header (a script)', { 'Content-Type': 'application/json' }],
  ])('%s: 403 cross_origin, nothing written', async (_name, headers) => {
    const response = await post(CONSOLE_API.publish, { base: null, document: DOCUMENT }, headers);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ ok: false, error: 'cross_origin' });
    expect(await stored()).toEqual({ split: null, flows: null, experiments: null, versions: 0 });
  });

  it('the page origin itself is admitted without Sec-Fetch-Site', async () => {
    const response = await post(
      CONSOLE_API.publish,
      { base: null, document: DOCUMENT },
      { Origin: ORIGIN, 'Content-Type': 'application/json' },
    );
    expect(response.status).toBe(200);
  });

  it('a body that does not say it is JSON: 415, nothing written', async () => {
    const response = await post(
      CONSOLE_API.publish,
      JSON.stringify({ base: null, document: DOCUMENT }),
      { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/plain' },
    );
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
    expect(await stored()).toEqual({ split: null, flows: null, experiments: null, versions: 0 });
  });

  it.each([
    ['not JSON', '{"base": '],
    ['no base', { document: DOCUMENT }],
    ['a base that is not a version', { base: -1, document: DOCUMENT }],
  ])('%s: 400 bad_request', async (_name, body) => {
    const response = await post(CONSOLE_API.publish, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
  });
});

describe('a KV write that fails', () => {
  it('takes the claimed version back and restores the key already written', async () => {
    const versions = versionStore(d1Runner(env.CONFIG_DB));
    const written: string[] = [];
    const live = {
      read: (key: string) => env.FUNNEL_CONFIG.get(key, 'text'),
      async write(key: string, value: string) {
        written.push(key);
        // content is written first, then flows, then routing; the split write fails.
        if (key === 'split' && written.length === 4) throw new Error('KV is down');
        await env.FUNNEL_CONFIG.put(key, value);
      },
      remove: (key: string) => env.FUNNEL_CONFIG.delete(key),
    };
    await env.FUNNEL_CONFIG.put('flows', '{"version":"old","flows":{"default":["one_pager"]}}');
    await env.FUNNEL_CONFIG.delete('routing');
    await expect(
      publish(
        { versions, live, gate: gateOf(env) },
        {
          base: null,
          document: DOCUMENT,
          author: 'a@b.c',
          note: '',
          source: 'console',
          now: new Date(),
        },
      ),
    ).rejects.toThrow('KV is down');
    expect(await versions.head()).toBeNull();
    expect(await env.FUNNEL_CONFIG.get('flows', 'text')).toBe(
      '{"version":"old","flows":{"default":["one_pager"]}}',
    );
    // Routing was absent before: it is absent again, not left at the version taken back.
    expect(written.slice(0, 4)).toEqual(['content', 'flows', 'routing', 'split']);
    expect(await env.FUNNEL_CONFIG.get('routing', 'text')).toBeNull();
  });
});

describe('a KV write of the experiments that fails', () => {
  it('takes back every key written before it, and removes the experiments key it added', async () => {
    const versions = versionStore(d1Runner(env.CONFIG_DB));
    const written: string[] = [];
    const live = {
      read: (key: string) => env.FUNNEL_CONFIG.get(key, 'text'),
      async write(key: string, value: string) {
        written.push(key);
        // The experiments are written last, after content, flows, routing and split.
        if (key === 'experiments' && written.length === 5) throw new Error('KV is down');
        await env.FUNNEL_CONFIG.put(key, value);
      },
      remove: (key: string) => env.FUNNEL_CONFIG.delete(key),
    };
    const split = JSON.stringify({ ...DOCUMENT.split, version: 'old' });
    await env.FUNNEL_CONFIG.put('split', split);
    const contentBefore = await env.FUNNEL_CONFIG.get('content', 'text');
    await expect(
      publish(
        { versions, live, gate: gateOf(env) },
        {
          base: null,
          document: withExperiments({ 'landing-all': LANDING_TEST }),
          author: 'a@b.c',
          note: '',
          source: 'console',
          now: new Date(),
        },
      ),
    ).rejects.toThrow('KV is down');
    expect(written.slice(0, 5)).toEqual(['content', 'flows', 'routing', 'split', 'experiments']);
    expect(await versions.head()).toBeNull();
    // Content is back to what it was before.
    expect(await env.FUNNEL_CONFIG.get('content', 'text')).toBe(contentBefore);
    expect(await stored()).toEqual({ split, flows: null, experiments: null, versions: 0 });
    expect(await env.FUNNEL_CONFIG.get('routing', 'text')).toBeNull();
  });
});

describe('the experiments section', () => {
  it("is written with the rest, stamped with the version and each experiment's phase", async () => {
    const response = await post(CONSOLE_API.publish, {
      base: null,
      document: withExperiments({ 'landing-all': LANDING_TEST }),
    });
    expect(response.status).toBe(200);
    // Its phase, and when it started running, stamped by the publish.
    const published = {
      version: 'v1',
      experiments: {
        'landing-all': { ...LANDING_TEST, phase: 1, startedAt: expect.stringMatching(/^2\d{3}-/) },
      },
    };
    expect(JSON.parse((await stored()).experiments!)).toEqual(published);
    const live = await state();
    expect(live.live.experiments).toEqual(published);
    expect(live.drift).toBeNull();

    // The review of an edit names the experiment's field, not the stamps.
    const paused = withExperiments({ 'landing-all': { ...LANDING_TEST, status: 'paused' } });
    const check = await post(CONSOLE_API.check, { base: 1, document: paused });
    expect(await check.json()).toEqual({
      ok: true,
      diff: [
        {
          path: 'experiments.experiments.landing-all.status',
          kind: 'changed',
          before: 'running',
          after: 'paused',
        },
      ],
      phase: null,
      experimentPhases: [],
      warnings: [SAME_FLOWS_WARNING],
      approval: {
        required: false,
        reasons: [
          {
            path: 'experiments.experiments.landing-all.status',
            reason: 'starts or ends an experiment',
          },
        ],
      },
    });
  });

  it('a document without it, from a console page older than the worker, is refused by name', async () => {
    await post(CONSOLE_API.publish, {
      base: null,
      document: withExperiments({ 'landing-all': LANDING_TEST }),
    });
    const before = await stored();
    const { experiments: _none, ...fromOldPage } = weighted(30, 70);
    for (const path of [CONSOLE_API.check, CONSOLE_API.publish]) {
      const response = await post(path, { base: 1, document: fromOldPage });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        ok: false,
        error: 'invalid_config',
        errors: [
          {
            path: 'experiments',
            message:
              'is missing (a console page opened before the worker was updated leaves it out: reload the page)',
          },
        ],
      });
    }
    // The landing test runs on: nothing was published over it.
    expect(await stored()).toEqual(before);
  });

  it("an experiment taking the split's id is refused, and nothing is written", async () => {
    const response = await post(CONSOLE_API.publish, {
      base: null,
      document: withExperiments({ split: LANDING_TEST }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'experiments.experiments.split',
        message: `"split" is the split test's id: give this experiment another`,
      },
    ]);
    expect(await stored()).toEqual({ split: null, flows: null, experiments: null, versions: 0 });
  });

  it("rollback publishes an earlier version's experiments again; the history shows them", async () => {
    await post(CONSOLE_API.publish, {
      base: null,
      document: withExperiments({ 'landing-all': LANDING_TEST }),
      note: 'landing test',
    });
    const paused = withExperiments({ 'landing-all': { ...LANDING_TEST, status: 'paused' } });
    await post(CONSOLE_API.publish, { base: 1, document: paused, note: 'pause it' });
    const stamped = JSON.parse((await stored()).experiments!) as ExperimentsDocument;
    expect(stamped.experiments['landing-all']?.status).toBe('paused');

    const response = await post(CONSOLE_API.rollback, { base: 2, seq: 1 });
    expect(response.status).toBe(200);
    const rolledBack = JSON.parse((await stored()).experiments!) as ExperimentsDocument;
    expect(rolledBack.version).toBe('v3');
    expect(rolledBack.experiments['landing-all']).toMatchObject({ status: 'running', phase: 1 });
    const history = (await (await fetchApp(CONSOLE_API.versions)).json()) as VersionsAnswer;
    expect(history.versions.map((version) => [version.id, version.diff])).toEqual([
      [
        'v3',
        [
          {
            path: 'experiments.experiments.landing-all.status',
            kind: 'changed',
            before: 'paused',
            after: 'running',
          },
        ],
      ],
      [
        'v2',
        [
          {
            path: 'experiments.experiments.landing-all.status',
            kind: 'changed',
            before: 'running',
            after: 'paused',
          },
        ],
      ],
      ['v1', expect.any(Array)],
    ]);
  });

  it('an experiment running cannot be deleted: it is stopped first', async () => {
    await post(CONSOLE_API.publish, {
      base: null,
      document: withExperiments({ 'landing-all': LANDING_TEST }),
    });
    const response = await post(CONSOLE_API.publish, { base: 1, document: DOCUMENT });
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as InvalidAnswer;
    expect(errors.map((error) => error.path)).toEqual(['experiments.experiments.landing-all']);
  });

  it('a version published before the section reads as no experiment but the split', async () => {
    // As a worker before the experiments section wrote it: no experiments_json, no KV key.
    const split = JSON.stringify({ ...DOCUMENT.split, version: 'v1', phase: 1 });
    const flows = JSON.stringify({ ...DOCUMENT.flows, version: 'v1' });
    const routing = JSON.stringify({ ...DEFAULT_ROUTING, version: 'v1' });
    await env.CONFIG_DB.prepare(
      `INSERT INTO config_versions
         (seq, id, at, author, note, base, phase, source, split_json, flows_json, routing_json)
       VALUES (1, 'v1', '2026-11-20T10:00:00.000Z', 'a@b.c', 'before experiments', NULL, 1,
               'console', ?, ?, ?)`,
    )
      .bind(split, flows, routing)
      .run();
    await env.FUNNEL_CONFIG.put('split', split);
    await env.FUNNEL_CONFIG.put('flows', flows);
    await env.FUNNEL_CONFIG.put('routing', routing);

    const live = await state();
    expect(live.head).toMatchObject({ id: 'v1', note: 'before experiments' });
    expect(live.live.experiments).toEqual(DEFAULT_EXPERIMENTS);
    expect(live.drift).toBeNull();

    // A draft: one running could not be taken away by the rollback below (stop it first).
    const draft = { ...LANDING_TEST, status: 'draft' as const };
    const landing = withExperiments({ 'landing-all': draft });
    const check = (await (
      await post(CONSOLE_API.check, { base: 1, document: landing })
    ).json()) as CheckAnswer;
    expect(check.diff).toEqual([
      { path: 'experiments.experiments.landing-all', kind: 'added', after: draft },
    ]);
    expect((await post(CONSOLE_API.publish, { base: 1, document: landing })).status).toBe(200);

    // Rolling back to it publishes what it ran: no experiment but the split.
    expect((await post(CONSOLE_API.rollback, { base: 2, seq: 1 })).status).toBe(200);
    expect(JSON.parse((await stored()).experiments!)).toEqual({ version: 'v3', experiments: {} });
    const history = (await (await fetchApp(CONSOLE_API.versions)).json()) as VersionsAnswer;
    expect(history.versions.at(-1)!.diff.map((change) => change.path)).toEqual([
      'split',
      'flows',
      'routing',
      'experiments',
    ]);
  });

  it('without the experiments key, the split alone draws visitors and nothing is logged of it', async () => {
    // KV as a project before experiments: the split and flows written, no experiments key.
    await env.FUNNEL_CONFIG.put(
      'split',
      JSON.stringify({ ...weighted(0, 100).split, version: 'kv' }),
    );
    await env.FUNNEL_CONFIG.put('flows', JSON.stringify(DOCUMENT.flows));
    const page = await fetchApp('/');
    expect(page.status).toBe(200);
    expect(unsigned(setCookies(page).get('gf_variant'))).toBe('lp1ch2');
    expect(logs.filter((line) => line.includes('"key":"experiments"'))).toEqual([]);
    expect((await state()).drift).toBeNull();
  });
});

describe('when routes and the split began (what the holdout covers)', () => {
  /** DOCUMENT with a `spring` route (visitors of the `spring` link) before `default`. */
  function withSpring(since?: string): ConfigDocument {
    return {
      ...DOCUMENT,
      routing: {
        ...DEFAULT_ROUTING,
        audiences: {
          spring: { groups: [[{ attribute: 'entry', operator: 'in', values: ['spring'] }]] },
        },
        routes: [
          { id: 'spring', audience: 'spring', flow: 'default', ...(since ? { since } : {}) },
          ...DEFAULT_ROUTING.routes,
        ],
      },
    };
  }

  it('are stamped by the publish that adds the route or starts the phase, never by the draft', async () => {
    const stores = {
      versions: versionStore(d1Runner(env.CONFIG_DB)),
      live: kvLiveKeys(env.FUNNEL_CONFIG),
      gate: gateOf(env),
    };
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));
    const publishAt = async (base: number | null, document: ConfigDocument, day: number) => {
      const input = { base, document, author: 'a@b.c', note: '', source: 'console' as const };
      const outcome = await publish(stores, { ...input, now: at(day) });
      expect(outcome.kind).toBe('published');
    };
    const kv = async () => ({
      routing: JSON.parse((await env.FUNNEL_CONFIG.get('routing', 'text'))!) as RoutingDocument,
      split: JSON.parse((await env.FUNNEL_CONFIG.get('split', 'text'))!) as SplitDocument,
    });
    // The first publish: nothing live to be new against.
    await publishAt(null, DOCUMENT, 1);
    expect((await kv()).routing.routes.map((route) => route.since)).toEqual([undefined]);
    expect((await kv()).split.since).toBeUndefined();
    // A route added, with a start typed to date it back, and the split's shares changed.
    await publishAt(1, { ...withSpring(at(1).toISOString()), split: weighted(30, 70).split }, 5);
    const second = await kv();
    expect(second.routing.routes.map((route) => route.since)).toEqual([
      at(5).toISOString(),
      undefined,
    ]);
    expect(second.split).toMatchObject({ phase: 2, since: at(5).toISOString() });
    // Edited later, the same shares: both keep their starts.
    const edited = withSpring(at(9).toISOString());
    edited.routing.routes[0]!.flow = 'lp1ch2';
    await publishAt(2, { ...edited, split: weighted(3, 7).split }, 9);
    const third = await kv();
    expect(third.routing.routes[0]).toMatchObject({ flow: 'lp1ch2', since: at(5).toISOString() });
    expect(third.split).toMatchObject({ phase: 2, since: at(5).toISOString() });
  });
});
