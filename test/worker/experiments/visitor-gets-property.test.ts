import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { RoutingDocument } from '../../../shared/config/routing';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { VisitorGetsAnswer } from '../../../shared/console-api/routes';
import { isPlanId, planById } from '../../../shared/plans/catalogue';
import { SCREEN_OFFERS, type SellingScreenId } from '../../../shared/plans/screen-offers';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { PLATFORM_USER_AGENTS } from '../../../worker/console/described-visitor';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import {
  HEADLINE_TEST,
  ONE_VARIANT_SPLIT,
  rolledOutLanding,
  TESTIMONIALS_FIRST,
} from '../../fixtures/rolled-out';
import { freshApp, putConfig } from '../fetch-app';
import { islandProps, pageStateOf } from '../page-html';
import { emptyExperiments, PRICE_TEST, putExperiments } from './experiment-fixtures';

/**
 * Issue 59's property: for random configs (the shipped defaults with random experiments,
 * roll-outs, routes and content variants) and random visitors, what the console answers for
 * "what does this visitor get" (POST /console/api/visitor-gets, the visitor described: id,
 * country, language, platform, link) is what the edge serves that visitor on a real request:
 * the route, each experiment's arm and the flow (the request's log line, which the experiments
 * middleware fills), the landing (the page's own state), and the plans its selling screen
 * offers (the page's plan choice).
 */

const NOW = Date.now();

type Platform = 'ios' | 'android' | 'desktop';

interface Visitor {
  id: string;
  country: 'DE' | 'FR' | 'US';
  language: 'en' | 'de';
  platform: Platform;
  spring: boolean;
}

const audiences = fc.constantFrom(
  {},
  { groups: [[{ attribute: 'country' as const, operator: 'in' as const, values: ['DE'] }]] },
  { groups: [[{ attribute: 'platform' as const, operator: 'in' as const, values: ['ios'] }]] },
  { groups: [[{ attribute: 'language' as const, operator: 'in' as const, values: ['de'] }]] },
);
const routeLists = fc.constantFrom(undefined, ['default'], ['spring']);

/** The landing test: running (on half the layer or all of it), paused, rolled out, or absent. */
const landingTest = fc.record({
  status: fc.constantFrom('running', 'paused', 'rolled_out', 'absent'),
  winner: fc.constantFrom('ai', 'control'),
  half: fc.boolean(),
  audience: audiences,
  routes: routeLists,
});

/** The price test: running, rolled out (cheap), or absent. */
const priceTest = fc.record({
  status: fc.constantFrom('running', 'rolled_out', 'absent'),
  audience: audiences,
  routes: routeLists,
});

const configs = fc.record({
  landing: landingTest,
  price: priceTest,
  /** A content test in the landing layer's other half, when the landing test takes one half. */
  headline: fc.boolean(),
  springFlow: fc.constantFrom('default', 'lp11ch8', 'lp17ch17pr5'),
  springContent: fc.boolean(),
  twoWaySplit: fc.boolean(),
});

type Config = typeof configs extends fc.Arbitrary<infer T> ? T : never;

const visitors: fc.Arbitrary<Visitor> = fc.record({
  id: fc.uuid({ version: 4 }),
  country: fc.constantFrom('DE', 'FR', 'US'),
  language: fc.constantFrom('en', 'de'),
  platform: fc.constantFrom('ios', 'android', 'desktop'),
  spring: fc.boolean(),
});

function experimentsOf(config: Config): Record<string, ExperimentDocument> {
  const experiments: Record<string, ExperimentDocument> = {};
  const { landing, price } = config;
  const audienceOf = (part: { audience: object; routes?: readonly string[] | undefined }) =>
    ({
      ...part.audience,
      ...(part.routes ? { routes: [...part.routes] } : {}),
    }) as ExperimentDocument['audience'];
  if (landing.status === 'rolled_out') {
    const shipped = rolledOutLanding(NOW);
    experiments['lp-ai'] = {
      ...shipped,
      audience: audienceOf(landing),
      decision: { ...shipped.decision!, variant: landing.winner },
    };
  } else if (landing.status !== 'absent') {
    experiments['lp-ai'] = {
      ...aiLandingTest(1),
      status: landing.status as 'running' | 'paused',
      audience: audienceOf(landing),
      ...(landing.half ? { range: [0, 0.5] as [number, number] } : {}),
    };
  }
  if (config.headline && landing.half) {
    experiments.headline = { ...HEADLINE_TEST, range: [0.5, 1] };
  }
  if (price.status === 'running') {
    experiments['pw-price'] = { ...PRICE_TEST, audience: audienceOf(price) };
  } else if (price.status === 'rolled_out') {
    const shipped = rolledOutLanding(NOW);
    experiments['pw-price'] = {
      ...PRICE_TEST,
      audience: audienceOf(price),
      status: 'shipped',
      endedAt: shipped.endedAt,
      decision: { ...shipped.decision!, variant: 'cheap' },
    };
  }
  return experiments;
}

function routingOf(config: Config): RoutingDocument {
  return {
    version: 'property',
    audiences: {
      spring: { groups: [[{ attribute: 'entry', operator: 'equals', values: ['spring'] }]] },
    },
    routes: [
      {
        id: 'spring',
        audience: 'spring',
        flow: config.springFlow,
        ...(config.springContent ? { content: { one_pager: 'testimonials_first' } } : {}),
      },
      { id: 'default', flow: 'default' },
    ],
  };
}

const TWO_WAY_SPLIT = {
  version: 's2',
  defaultVariant: 'default',
  variants: { default: { weight: 1 }, lp17: { weight: 1, flow: 'lp17ch17pr5' } },
};

/** The config published to the real KV, as the edge reads it; the same sent as the console's. */
async function publish(config: Config) {
  const document = {
    split: config.twoWaySplit ? TWO_WAY_SPLIT : ONE_VARIANT_SPLIT,
    flows: DEFAULT_FLOWS,
    routing: routingOf(config),
    experiments: { version: 'property', experiments: experimentsOf(config) },
    content: TESTIMONIALS_FIRST,
  };
  await Promise.all([
    putConfig('split', document.split),
    putConfig('flows', document.flows),
    putConfig('routing', document.routing),
    putConfig('content', document.content),
    putExperiments(document.experiments.experiments),
  ]);
  return document;
}

/** The plan families a selling page offers (its plan choice's plans). */
function familiesOffered(html: string): string[] {
  const props = islandProps(html, 'PlanChoice') as { options: { details: { id: string } }[] };
  return props.options
    .map(({ details }) => details.id)
    .filter(isPlanId)
    .map((id) => planById(id).family)
    .sort();
}

let logs: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  logs = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterAll(async () => {
  vi.restoreAllMocks();
  await emptyExperiments();
});

/** The log line of the request for `path`, as the request log wrote it. */
function logLineOf(path: string): Record<string, unknown> {
  const lines = logs.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));
  const line = lines.findLast((each: Record<string, unknown>) => each.path === path);
  expect(line).toBeDefined();
  return line;
}

describe('the console’s answer and the edge’s page', () => {
  it('agree on route, arms, flow, landing and plans for random configs and visitors', async () => {
    await fc.assert(
      fc.asyncProperty(configs, visitors, async (config, visitor) => {
        const document = await publish(config);
        const fetchApp = freshApp({ now: () => NOW });
        const query = visitor.spring ? '?r=spring' : '';
        const answer = (await (
          await fetchApp(CONSOLE_API.visitorGets, {
            method: 'POST',
            headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
            body: JSON.stringify({
              link: `https://funnel.test/${query}`,
              country: visitor.country,
              platform: visitor.platform,
              language: visitor.language,
              // The edge's visitor brings their id back in a cookie: a returning visitor.
              returning: true,
              visitorId: visitor.id,
              document,
              at: new Date(NOW).toISOString(),
            }),
          })
        ).json()) as VisitorGetsAnswer;
        const headers = {
          cookie: `userUuid=${visitor.id}`,
          'cf-ipcountry': visitor.country,
          'accept-language': visitor.language,
          'user-agent': PLATFORM_USER_AGENTS[visitor.platform] as string,
        };
        const page = await fetchApp(`/${query}`, { headers });
        expect(page.status).toBe(200);
        const line = logLineOf('/');
        expect(line.route).toBe(answer.route);
        expect(line.flow).toBe(answer.flow);
        expect(line.experiments ?? '').toBe(
          answer.arms.map((arm) => `${arm.experiment}:${arm.variant}`).join(','),
        );
        expect(pageStateOf(await page.text()).screen).toBe(answer.landing?.ref);
        const selling = answer.screens.find((screen) => screen.slot === 'paywall');
        if (!selling?.screen) return;
        const paywall = await fetchApp(`/${selling.ref}${query}`, { headers });
        const own = SCREEN_OFFERS[selling.screen as SellingScreenId].families;
        expect(familiesOffered(await paywall.text())).toEqual([...(answer.plans ?? own)].sort());
      }),
      { numRuns: 24 },
    );
  }, 120_000);
});
