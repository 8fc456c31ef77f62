import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { CheckAnswer, ConfigDocument } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { SPRING_LANDING } from '../../fixtures/composed-landing';
import { freshApp, putConfig } from '../fetch-app';
import { SPLIT_DOCUMENT } from './documents';

/**
 * The review's "How the screens change" as the worker answers it (CheckAnswer.screens): which
 * screens a publish changes for whom, worked out by the code the edge serves with, live and
 * draft, against the real KV. A content variant only a route shows, and a composed screen only a
 * route's flow walks, are listed as that route serves them; a route that shows neither is not.
 */

const fetchApp = freshApp({ random: () => 0.5 });

const TITLE = 'screens.one_pager.title';

/** TikTok visitors get their own route; everyone else the split's. */
function routing(tiktok: RoutingDocument['routes'][number]): RoutingDocument {
  return {
    version: 'r1',
    audiences: {
      tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
    },
    routes: [tiktok, { id: 'default', flow: 'default' }],
  };
}

/** The one-pager with a shorter headline as its variant `short`, and the spring landing. */
const CONTENT: ContentDocument = {
  screens: { one_pager: { variants: { short: { copy: { en: { [TITLE]: 'Short' } } } } } },
  composed: SPRING_LANDING.composed,
};

/** What is live: the route `tiktok` shows the one-pager's `short`, and walks `flow`. */
function live(flow: string, content: Partial<Record<string, string>> = {}): ConfigDocument {
  return {
    ...SPLIT_DOCUMENT,
    flows: {
      version: 'f1',
      flows: {
        ...SPLIT_DOCUMENT.flows.flows,
        spring: ['spring_landing', ...DEFAULT_FLOWS.flows.default!.slice(1)],
      },
    },
    routing: routing({ id: 'tiktok', audience: 'tiktok', flow, content }),
    content: structuredClone(CONTENT),
  };
}

/** The route tiktok as the content preview takes it, showing `content`. */
const tiktokRoute = (flow: string, content?: Record<string, string>) => ({
  id: 'tiktok',
  flow,
  plans: null,
  upsellPlans: null,
  guidePlans: null,
  ...(content ? { content } : {}),
});

async function putLive(document: ConfigDocument) {
  for (const key of ['split', 'flows', 'routing', 'experiments', 'content'] as const)
    await putConfig(key, document[key]);
}

async function check(document: ConfigDocument): Promise<CheckAnswer> {
  const response = await fetchApp(CONSOLE_API.check, {
    method: 'POST',
    headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
    body: JSON.stringify({ base: null, document }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM config_versions');
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('the screens a publish changes', () => {
  it('lists a content variant only a route shows, drawn as that route serves it', async () => {
    const before = live('default', { one_pager: 'short' });
    await putLive(before);
    expect((await check(before)).screens).toBeUndefined();
    const shorter = structuredClone(before);
    shorter.content.screens.one_pager!.variants!.short!.copy = { en: { [TITLE]: 'Shorter' } };
    const side = { variant: 'short', route: tiktokRoute('default', { one_pager: 'short' }) };
    expect((await check(shorter)).screens).toEqual([
      {
        screen: 'one_pager',
        routes: ['tiktok'],
        arm: null,
        live: side,
        draft: side,
        languages: ['en'],
      },
    ]);
    // The screen's own headline reaches the route default's visitors; tiktok's variant gives its own.
    const retitled = structuredClone(before);
    retitled.content.screens.one_pager!.copy = { en: { [TITLE]: 'New' } };
    const own = { variant: null, route: { ...tiktokRoute('default'), id: 'default' } };
    expect((await check(retitled)).screens).toEqual([
      {
        screen: 'one_pager',
        routes: ['default'],
        arm: null,
        live: own,
        draft: own,
        languages: ['en'],
      },
    ]);
    // A route that starts showing a variant changes its visitors' screen, its content unchanged.
    const shown = live('default', { one_pager: 'short' });
    await putLive(live('default'));
    expect((await check(shown)).screens).toEqual([
      {
        screen: 'one_pager',
        routes: ['tiktok'],
        arm: null,
        live: { variant: null, route: tiktokRoute('default') },
        draft: side,
        languages: ['en'],
      },
    ]);
  });

  it('lists a composed screen of a route’s flow as that route’s visitors get it', async () => {
    await putLive(live('spring'));
    const draft = live('spring', { spring_landing: 'reviews_last' });
    draft.content.composed!.spring_landing!.variants = {
      reviews_last: { copy: { en: { [TITLE]: 'Reviews last' } } },
    };
    expect((await check(draft)).screens).toEqual([
      {
        screen: 'spring_landing',
        routes: ['tiktok'],
        arm: null,
        live: { variant: null, route: tiktokRoute('spring') },
        draft: {
          variant: 'reviews_last',
          route: tiktokRoute('spring', { spring_landing: 'reviews_last' }),
        },
        languages: ['en'],
      },
    ]);
  });

  it('lists a content variant an experiment’s arm shows, with the arm, as the edge serves it', async () => {
    await putLive(live('default'));
    const draft = live('default');
    draft.experiments = {
      version: 'e1',
      experiments: {
        'short-headline': {
          name: 'Short headline',
          status: 'running',
          layer: 'landing',
          audience: { routes: ['default'] },
          coverage: 1,
          seed: 'short-headline',
          control: 'a',
          variants: {
            a: { weight: 1, change: {} },
            b: { weight: 1, change: { content: { one_pager: 'short' } } },
          },
        },
      },
    };
    const drawn = { ...tiktokRoute('default'), id: 'default' };
    expect((await check(draft)).screens).toEqual([
      {
        screen: 'one_pager',
        routes: ['default'],
        arm: { experiment: 'short-headline', variant: 'b' },
        live: { variant: null, route: drawn },
        draft: { variant: 'short', route: { ...drawn, content: { one_pager: 'short' } } },
        languages: ['en'],
      },
    ]);
  });

  it('lists a screen no route walks yet as the route default would show it, naming none', async () => {
    await putLive({ ...live('default'), content: { screens: CONTENT.screens } });
    const answer = await check(live('default'));
    expect(answer.screens).toEqual([
      {
        screen: 'spring_landing',
        routes: [],
        arm: null,
        live: null,
        draft: {
          variant: null,
          route: {
            id: 'default',
            flow: 'default',
            plans: null,
            upsellPlans: null,
            guidePlans: null,
          },
        },
        languages: Object.keys(SPRING_LANDING.composed!.spring_landing!.copy!),
      },
    ]);
  });
});
