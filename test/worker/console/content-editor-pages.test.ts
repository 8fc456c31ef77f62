import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import {
  CONSOLE_CONTENT_API,
  type ContentPreviewAnswer,
  type ContentPreviewRequest,
} from '../../../shared/console-api/content';
import { DEFAULT_ROUTING } from '../../../worker/config/defaults';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';
import { freshApp, putConfig } from '../fetch-app';

/**
 * The pages the content editor's preview frame shows, as the worker draws them for the editor's
 * own requests (console/content/stores/content-editor.ts `followPreview`): a route's content
 * variant, a country's visitor routed as the edge routes them, and a paywall composed from the
 * checkout. Once test/browser/console-content.test.ts's page loads; the console's side of the
 * same steps (which request a pick sends, what the editor says) is
 * test/unit/console/content-ui.test.tsx's.
 */

const LIVE_TITLE = 'Find out where your loved ones are';
const SPRING_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';
const TITLE = 'screens.one_pager.title';

/** The landing's content variant `spring`: its headline in every shipped language. */
const SPRING_CONTENT: ContentDocument = {
  screens: {
    one_pager: {
      variants: {
        spring: {
          copy: Object.fromEntries(
            Object.entries(HEADLINE_IN_EVERY_LANGUAGE).map(([language, text]) => [
              language,
              { [TITLE]: text },
            ]),
          ),
        },
      },
    },
  },
};

/** Route `spring`, German visitors, showing variant spring of the landing, above default. */
const SPRING_ROUTING = {
  ...DEFAULT_ROUTING,
  audiences: {
    germany: { groups: [[{ attribute: 'country', operator: 'in', values: ['DE'] }]] },
  },
  routes: [
    { id: 'spring', audience: 'germany', flow: 'lp11ch8', content: { one_pager: 'spring' } },
    ...DEFAULT_ROUTING.routes,
  ],
};

const heading = (html: string) => /<h1 id="screen-title">([^<]+)<\/h1>/.exec(html)?.[1];

let fetchApp: ReturnType<typeof freshApp>;

async function preview(request: ContentPreviewRequest): Promise<string> {
  const response = await fetchApp(CONSOLE_CONTENT_API.preview, {
    method: 'POST',
    headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as ContentPreviewAnswer).html;
}

const LANDING = { screen: 'one_pager', language: 'en', theme: 'geozilla' };

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  await putConfig('routing', SPRING_ROUTING);
  await putConfig('content', SPRING_CONTENT);
  fetchApp = freshApp();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await env.FUNNEL_CONFIG.delete('routing');
  await env.FUNNEL_CONFIG.delete('content');
});

describe('the content editor’s preview of a route', () => {
  it('draws the variant the editor sends for route spring, under the route’s preview bar', async () => {
    // Route spring picked: the editor sends the landing with variant spring laid over it.
    const content: ContentDocument = {
      screens: { one_pager: { copy: { en: { [TITLE]: SPRING_TITLE } } } },
    };
    const route = { id: 'spring', flow: 'lp11ch8', plans: null };
    const html = await preview({ ...LANDING, content, route, country: 'DE' });
    expect(heading(html)).toBe(SPRING_TITLE);
    expect(html).toContain('Preview of route <strong>spring</strong>');
    // A visitor from Germany: the phone form starts at +49.
    expect(html).toContain('<option value="DE" selected="">');
  });

  it('routes a country’s visitor as the edge does when no route is picked', async () => {
    // No route, the visitor from Germany: route spring's landing, its content variant.
    expect(heading(await preview({ ...LANDING, content: SPRING_CONTENT, country: 'DE' }))).toBe(
      SPRING_TITLE,
    );
    // From where the worker places them (no country here): the default route's landing.
    expect(heading(await preview({ ...LANDING, content: SPRING_CONTENT, country: null }))).toBe(
      LIVE_TITLE,
    );
  });
});

describe('the content editor’s preview of a paywall composed from the checkout', () => {
  it('draws the checkout’s plan picker and form, the countdown moved below the heading', async () => {
    const sections = [
      'heading',
      'countdown',
      'callout',
      'plans',
      'payment',
      'guarantee',
      'trust',
      'providers',
      'support',
    ];
    const content: ContentDocument = {
      screens: {},
      composed: {
        spring_paywall: {
          slot: 'paywall',
          from: 'checkout_v3_tr',
          sections: sections.map((id) => ({ id, visible: true })),
        },
      },
    };
    const html = await preview({ ...LANDING, screen: 'spring_paywall', content });
    expect(html).toContain('class="plan-picker');
    expect(html).toContain('data-island="CheckoutPayment"');
    expect(html.indexOf('<h1')).toBeLessThan(html.indexOf('data-island="OfferTimer"'));
    expect((await fetchApp('/spring_paywall')).status).toBe(404);
  });
});
