import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPOSED_SCREENS } from '../../../screens/composed';
import type { ContentDocument } from '../../../shared/config/content';
import type { ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import { CONSOLE_CONTENT_API, type ContentCatalogue } from '../../../shared/console-api/content';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import type { ScreenId } from '../../../shared/screens';
import { freshApp } from '../fetch-app';

/**
 * The screens made of sections past the landing (searching, signup, the feature list, paywalls,
 * upsells, success, the declined payment), with a
 * marketer's content published through the console against the real KV and D1: with none, or
 * content that changes nothing, each is the screen in code byte for byte; a paywall's sections
 * come in the content's order; a section its slot needs, hidden, is refused at its path.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

const consoleApp = freshApp();
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
const post = (path: string, body: unknown) =>
  consoleApp(path, { method: 'POST', headers: SAME_ORIGIN, body: JSON.stringify(body) });

async function publish(content: ContentDocument): Promise<Response> {
  const state = (await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState;
  return post(CONSOLE_API.publish, {
    base: state.head?.seq ?? null,
    document: { ...state.live, content },
  });
}

/** A screen as a new visitor opening it gets it, from a worker that reads KV afresh. */
async function screen(id: string): Promise<string> {
  const response = await freshApp()(`/${id}?skip_split=true`);
  expect(response.status).toBe(200);
  return response.text();
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The page's screen, without the visitor's own id and the config version around it. */
const mainOf = (html: string) =>
  html.slice(html.indexOf('<main'), html.indexOf('</main>')).replace(UUID, 'visitor');

const PAST_THE_LANDING = (Object.keys(COMPOSED_SCREENS) as ScreenId[]).filter(
  (id) => COMPOSED_SCREENS[id]?.slot !== 'landing',
);

const inCodeOrder = (id: ScreenId) =>
  (COMPOSED_SCREENS[id]?.composition.sections ?? []).map(({ kind }) => ({
    id: kind,
    visible: true,
  }));

describe('screens made of sections past the landing', () => {
  it('are every screen but the landings and the development ones', () => {
    expect(PAST_THE_LANDING.sort()).toEqual([
      'checkout_h3_pp',
      'checkout_h3_pp_braintree',
      'checkout_v3_pp',
      'checkout_v3_tr',
      'features',
      'paycheck1_pr5_h_ai',
      'paycheck1_pr5_h_win',
      'paycheck_combo_3d',
      'payment_declined',
      'searching',
      'searching_2',
      'searching_ai',
      'signup',
      'signup_testim',
      'success',
      'upsell_an_private',
      'upsell_guide',
    ]);
  });

  it('render byte for byte as in code with no content, empty content, or their own order', async () => {
    const inCode = new Map<string, string>();
    for (const id of PAST_THE_LANDING) inCode.set(id, mainOf(await screen(id)));
    expect((await publish({ screens: {} })).status).toBe(200);
    for (const id of PAST_THE_LANDING) expect(mainOf(await screen(id))).toBe(inCode.get(id));
    const unchanged = Object.fromEntries(
      PAST_THE_LANDING.map((id) => [id, { sections: inCodeOrder(id) }]),
    );
    expect((await publish({ screens: unchanged })).status).toBe(200);
    for (const id of PAST_THE_LANDING) expect(mainOf(await screen(id))).toBe(inCode.get(id));
  });
});

/** checkout_v3_tr with what other families say and the guarantee above the plans. */
const PROOF_FIRST = [
  'countdown',
  'heading',
  'testimonials',
  'guarantee',
  'callout',
  'plans',
  'payment',
  'trust',
  'providers',
  'support',
];

describe('a paywall’s content', () => {
  it('puts its sections in the content’s order, and refuses the payment hidden, by path', async () => {
    const inCode = await screen('checkout_v3_tr');
    const plans = (html: string) => html.indexOf('data-island="PlanChoice"');
    const guarantee = (html: string) => html.indexOf('class="plan-guarantee');
    expect(inCode).not.toContain('class="signup__testimonials"');
    expect(guarantee(inCode)).toBeGreaterThan(plans(inCode));

    const sections = PROOF_FIRST.map((id) => ({ id, visible: true }));
    expect((await publish({ screens: { checkout_v3_tr: { sections } } })).status).toBe(200);
    const arranged = await screen('checkout_v3_tr');
    const testimonials = arranged.indexOf('class="signup__testimonials"');
    expect(testimonials).toBeGreaterThan(arranged.indexOf('id="screen-title"'));
    expect(testimonials).toBeLessThan(guarantee(arranged));
    expect(guarantee(arranged)).toBeLessThan(plans(arranged));
    // The paywall's CSS has no rules for the testimonials: the section brings them.
    expect(arranged).toContain('<style>.signup__testimonials{');
    // The islands still hydrate: the payment form and the plans keep their markers.
    expect(arranged).toContain('data-island="CheckoutPayment"');
    // Another checkout keeps its own order.
    expect(await screen('checkout_h3_pp')).not.toContain('class="signup__testimonials"');

    const kvBefore = await env.FUNNEL_CONFIG.get('content', 'text');
    const hidden = PROOF_FIRST.map((id) => ({ id, visible: id !== 'payment' }));
    const refused = await publish({ screens: { checkout_v3_tr: { sections: hidden } } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'content.screens.checkout_v3_tr.sections.6.visible',
        message: 'must be true: a paywall needs its "payment"',
      },
    ]);
    expect(await env.FUNNEL_CONFIG.get('content', 'text')).toBe(kvBefore);
  });

  it('refuses the order summary left off success, and the Skip hidden on an upsell', async () => {
    const summaryless = inCodeOrder('success').filter(({ id }) => id !== 'order_summary');
    const skipHidden = inCodeOrder('upsell_guide').map(({ id }) => ({
      id,
      visible: id !== 'skip',
    }));
    const refused = await publish({
      screens: { success: { sections: summaryless }, upsell_guide: { sections: skipHidden } },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'content.screens.success.sections',
        message: 'must include "order_summary": an end screen needs it',
      },
      {
        path: 'content.screens.upsell_guide.sections.2.visible',
        message: 'must be true: an upsell needs its "skip"',
      },
    ]);
  });
});

describe('the declined payment’s content', () => {
  it('hides what to check and moves the support links up, and refuses Try again hidden', async () => {
    const sections = [
      { id: 'heading', visible: true },
      { id: 'support', visible: true },
      { id: 'try_again', visible: true },
      { id: 'hints', visible: false },
    ];
    expect((await publish({ screens: { payment_declined: { sections } } })).status).toBe(200);
    const arranged = await screen('payment_declined');
    expect(arranged).not.toContain('class="declined__hints"');
    expect(arranged.indexOf('class="support-links"')).toBeLessThan(
      arranged.indexOf('data-island="TryAgain"'),
    );
    const hidden = sections.map(({ id }) => ({ id, visible: id !== 'try_again' }));
    const refused = await publish({ screens: { payment_declined: { sections: hidden } } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'content.screens.payment_declined.sections.2.visible',
        message: 'must be true: an end screen needs its "try_again"',
      },
    ]);
  });
});

describe('a searching screen’s content', () => {
  it('reorders, hides and adds its optional sections, and refuses the search hidden, by path', async () => {
    const inCode = await screen('searching_ai');
    const badge = (html: string) => html.indexOf('class="searching__badge"');
    const title = (html: string) => html.indexOf('id="screen-title"');
    const search = (html: string) => html.indexOf('data-island="SearchProgress"');
    const trust = (html: string) => html.indexOf('class="trust-labels"');
    expect(badge(inCode)).toBeGreaterThan(-1);
    expect(badge(inCode)).toBeLessThan(title(inCode));
    expect(trust(inCode)).toBe(-1);

    const sections = [
      { id: 'heading', visible: true },
      { id: 'trust', visible: true },
      { id: 'search', visible: true },
      { id: 'ai_badge', visible: false },
      { id: 'support', visible: true },
    ];
    expect((await publish({ screens: { searching_ai: { sections } } })).status).toBe(200);
    const arranged = await screen('searching_ai');
    expect(badge(arranged)).toBe(-1);
    expect(title(arranged)).toBeLessThan(trust(arranged));
    expect(trust(arranged)).toBeLessThan(search(arranged));
    expect(arranged.indexOf('class="support-links"')).toBeGreaterThan(search(arranged));
    // The AI screen keeps its styling and its island; the other searching screens stay as code.
    expect(arranged).toContain('class="screen searching searching--ai"');
    expect(arranged.match(/<h1/g)).toHaveLength(1);
    expect(await screen('searching')).not.toContain('class="trust-labels"');

    const kvBefore = await env.FUNNEL_CONFIG.get('content', 'text');
    const hidden = sections.map(({ id }) => ({ id, visible: id !== 'search' }));
    const refused = await publish({ screens: { searching: { sections: hidden } } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'content.screens.searching.sections.2.visible',
        message: 'must be true: a searching screen needs its "search"',
      },
    ]);
    expect(await env.FUNNEL_CONFIG.get('content', 'text')).toBe(kvBefore);
  });
});

describe('the content editor’s catalogue', () => {
  it('lists the paywalls with their sections, locks and copy keys', async () => {
    const catalogue = (await (
      await consoleApp(CONSOLE_CONTENT_API.catalogue)
    ).json()) as ContentCatalogue;
    const listed = catalogue.screens.map((entry) => entry.id);
    for (const id of PAST_THE_LANDING) expect(listed).toContain(id);
    const checkout = catalogue.screens.find((entry) => entry.id === 'checkout_v3_tr');
    expect(checkout?.slot).toBe('paywall');
    expect(checkout?.composition).toEqual([
      'countdown',
      'heading',
      'callout',
      'plans',
      'payment',
      'guarantee',
      'trust',
      'providers',
      'support',
    ]);
    expect(checkout?.sections.payment).toMatchObject({ required: true });
    expect(checkout?.sections.testimonials).toMatchObject({ required: false });
    expect(checkout?.sections.testimonials?.keys).toContain('signup.testimonials.1.text');
    expect(checkout?.sections.heading?.keys).toContain('screens.checkout_v3_tr.title');
    expect(catalogue.texts.en?.['plans.guarantee.title']).toBe('100% money-back guarantee');
  });
});
