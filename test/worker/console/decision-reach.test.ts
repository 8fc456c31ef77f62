import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { ConfigDocument, PublishAnswer } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import { DEFAULT_FLOWS, DEFAULT_ROUTING } from '../../../worker/config/defaults';
import { CHROME } from '../experiments/experiment-fixtures';
import { freshApp } from '../fetch-app';
import { pageStateOf } from '../page-html';
import { SPLIT_DOCUMENT } from './documents';

/**
 * The review (the console's check) and the publish, against the real KV and D1, refuse ending a
 * landing test by making its winner the default of a route the split test draws, at the decision's
 * field and naming the split, and write nothing; the roll-out the refusal names publishes, and a
 * new visitor drawn into either of the split's flows lands on the winner.
 */

const fetchApp = freshApp({ random: () => 0.5 });

const post = (path: string, body: unknown) =>
  fetchApp(path, {
    method: 'POST',
    headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const DEFAULT_SCREENS = [...(DEFAULT_FLOWS.flows.default ?? [])];

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

/** The split test on route default, half on each flow, with the landing test running. */
const RUNNING: ConfigDocument = {
  ...SPLIT_DOCUMENT,
  experiments: { version: 'draft', experiments: { 'landing-all': LANDING_TEST } },
};

const decided = (action: 'route_default' | 'roll_out'): ExperimentDocument => ({
  ...LANDING_TEST,
  status: 'shipped',
  decision: {
    result: 'won',
    action,
    variant: 'b',
    at: '2026-12-10T10:12:00Z',
    by: 'anna@example.com',
    evidence: {
      phase: 1,
      metric: 'lookup',
      relativeLift: 0.1,
      interval: [0.02, 0.18],
      verdict: 'better',
      srmAlarm: false,
    },
  },
});

/** The landing test ended with b as route default's, the route on a copy of its flow with b. */
const AS_ROUTE_DEFAULT: ConfigDocument = {
  ...RUNNING,
  flows: {
    ...RUNNING.flows,
    flows: {
      ...RUNNING.flows.flows,
      'default_landing-all_b': ['one_pager_all', ...DEFAULT_SCREENS.slice(1)],
    },
  },
  routing: { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow: 'default_landing-all_b' }] },
  experiments: { version: 'draft', experiments: { 'landing-all': decided('route_default') } },
};

const ROLLED_OUT: ConfigDocument = {
  ...RUNNING,
  experiments: { version: 'draft', experiments: { 'landing-all': decided('roll_out') } },
};

beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM config_versions');
  for (const key of ['split', 'flows', 'routing', 'experiments'])
    await env.FUNNEL_CONFIG.delete(key);
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('a winner made the default of a route the split test draws', () => {
  it('is refused by the review and the publish, naming the split; its roll-out publishes to both flows', async () => {
    const running = await post(CONSOLE_API.publish, { base: null, document: RUNNING });
    expect(running.status).toBe(200);
    const base = ((await running.json()) as PublishAnswer).version.seq;
    const before = await env.FUNNEL_CONFIG.get('experiments', 'text');

    for (const path of [CONSOLE_API.check, CONSOLE_API.publish]) {
      const response = await post(path, { base, document: AS_ROUTE_DEFAULT });
      expect(response.status).toBe(400);
      const { errors } = (await response.json()) as InvalidAnswer;
      expect(errors).toEqual([
        {
          path: 'experiments.experiments.landing-all.decision.action',
          message: expect.stringContaining(
            'the split test ("split") draws route "default" and walks its visitors through its own flows',
          ),
        },
      ]);
      expect(errors[0]?.message).toContain('Roll variant "b" out to the experiment\'s audience');
    }
    expect(await env.FUNNEL_CONFIG.get('experiments', 'text')).toBe(before);

    expect((await post(CONSOLE_API.check, { base, document: ROLLED_OUT })).status).toBe(200);
    expect((await post(CONSOLE_API.publish, { base, document: ROLLED_OUT })).status).toBe(200);

    // Rolled out, b shows on top of the split's flows: a new visitor drawn into either flow
    // lands on it.
    for (const [random, flow] of [
      [0.1, 'default'],
      [0.9, 'lp1ch2'],
    ] as const) {
      const page = await freshApp({ random: () => random })('/', {
        headers: { 'user-agent': CHROME },
      });
      expect(pageStateOf(await page.text())).toMatchObject({ screen: 'one_pager_all', flow });
    }
  });
});

describe('a rolled-out winner made the default of route default', () => {
  /** The roll-out made the route's default, route default taken out of the split. */
  const OUT_OF_SPLIT: ConfigDocument = {
    ...AS_ROUTE_DEFAULT,
    split: { ...AS_ROUTE_DEFAULT.split, routes: [] },
  };

  it('publishes once the route leaves the split, serves b to new visitors and frees the layer', async () => {
    const running = await post(CONSOLE_API.publish, { base: null, document: RUNNING });
    const first = ((await running.json()) as PublishAnswer).version.seq;
    const rolled = await post(CONSOLE_API.publish, { base: first, document: ROLLED_OUT });
    let base = ((await rolled.json()) as PublishAnswer).version.seq;
    // Rolled out, it holds layer landing: a new test of the whole layer on its route is refused.
    const nextTest: ExperimentDocument = {
      ...LANDING_TEST,
      seed: 'landing-next',
      range: [0, 1],
      variants: {
        ...LANDING_TEST.variants,
        b: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
      },
    };
    const crowded: ConfigDocument = {
      ...ROLLED_OUT,
      experiments: {
        version: 'draft',
        experiments: { ...ROLLED_OUT.experiments.experiments, 'landing-next': nextTest },
      },
    };
    const refused = await post(CONSOLE_API.check, { base, document: crowded });
    expect(((await refused.json()) as InvalidAnswer).errors.map((error) => error.path)).toContain(
      'experiments.experiments.landing-next.range',
    );
    // Still drawn by the split, route default would hide b from half its visitors.
    expect((await post(CONSOLE_API.check, { base, document: AS_ROUTE_DEFAULT })).status).toBe(400);
    const made = await post(CONSOLE_API.publish, { base, document: OUT_OF_SPLIT });
    expect(made.status).toBe(200);
    base = ((await made.json()) as PublishAnswer).version.seq;

    // The split draws no one: every new visitor walks route default's flow, b's landing first.
    for (const random of [0.1, 0.9]) {
      const page = await freshApp({ random: () => random })('/', {
        headers: { 'user-agent': CHROME },
      });
      const state = pageStateOf(await page.text());
      expect(state).toMatchObject({ screen: 'one_pager_all', flow: 'default_landing-all_b' });
      expect(page.headers.getSetCookie().some((cookie) => cookie.startsWith('gf_variant='))).toBe(
        false,
      );
    }

    // Archived, it frees layer landing for a new test of the whole layer on the same route.
    const next: ConfigDocument = {
      ...OUT_OF_SPLIT,
      experiments: {
        version: 'draft',
        experiments: {
          'landing-all': { ...decided('route_default'), status: 'archived' },
          'landing-next': nextTest,
        },
      },
    };
    const archived = await post(CONSOLE_API.publish, { base, document: next });
    expect(archived.status).toBe(200);
  });
});
