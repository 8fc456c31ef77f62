import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import {
  CONSOLE_CONTENT_API,
  type ContentCatalogue,
  type ContentLanguagesAnswer,
  type ContentPreviewAnswer,
  type SaveOfferPreviewAnswer,
} from '../../../shared/console-api/content';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import {
  contentPreviewRequest,
  saveOfferPreviewRequest,
} from '../../../shared/console-api/request-schemas';
import { ACCESS_TOKEN_HEADER, accessKeySets } from '../../../worker/access/console-access';
import { freshApp, productionApp, setCookies } from '../fetch-app';
import { pageStateOf } from '../page-html';
import { accessClaims, NOW_MS, PRODUCTION, teamAndStranger } from './access-tokens';

/**
 * The content editor's preview: a draft content drawn by the funnel's own page route, inside the
 * console's checks. It shows the draft's sections and copy, counts nothing, leaves no cookie,
 * never reaches a visitor's page, and refuses what is not the console's own well-formed call.
 */

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
const HEADLINE = 'Find your family in one tap';
const LIVE_HEADLINE = 'Find out where your loved ones are';

/** one_pager with the reviews above the phone form and a new English headline. */
const DRAFT: ContentDocument = {
  screens: {
    one_pager: {
      sections: [
        { id: 'hero', visible: true },
        { id: 'reviews', visible: true },
        { id: 'phone_form', visible: true },
        { id: 'illustration', visible: false },
        { id: 'footer', visible: true },
      ],
      copy: { en: { 'screens.one_pager.title': HEADLINE } },
    },
  },
};

function heading(html: string): string | undefined {
  return html.match(/<h1 id="screen-title">([^<]+)<\/h1>/)?.[1];
}

let fetchApp: ReturnType<typeof freshApp>;
function preview(body: unknown, headers: Record<string, string> = SAME_ORIGIN) {
  return fetchApp(CONSOLE_CONTENT_API.preview, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

const request = { screen: 'one_pager', language: 'en', theme: 'geozilla', content: DRAFT };

beforeEach(async () => {
  fetchApp = freshApp();
  await env.FUNNEL_CONFIG.delete('content');
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('a quiz question’s preview', () => {
  it('draws a draft’s question, unpublished, at its own path', async () => {
    const question = {
      kind: 'single',
      key: 'who',
      title: { en: 'Who do you want to keep safe?' },
      choices: [
        { value: 'child', label: { en: 'your child' } },
        { value: 'partner', label: { en: 'your partner' } },
      ],
    };
    const content = { screens: {}, questions: { q_who: question } };
    const answered = await preview({ ...request, screen: 'q_who', content });
    expect(answered.status).toBe(200);
    const { html } = (await answered.json()) as ContentPreviewAnswer;
    expect(html).toContain('Who do you want to keep safe?</h1>');
    expect(html).toContain('value="partner"');
    // Nothing of the draft reaches a visitor: the question is not published.
    expect((await fetchApp('/q_who')).status).toBe(404);
    // A question the draft does not declare is no screen to draw.
    expect((await preview({ ...request, screen: 'q_gone', content })).status).toBe(400);
  });
});

describe('POST /console/api/content/preview', () => {
  it('draws the screen from the draft: its order, its hidden sections, its copy', async () => {
    const response = await preview(request);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as ContentPreviewAnswer;
    expect(heading(answer.html)).toBe(HEADLINE);
    const reviewsAt = answer.html.indexOf('data-island="ReviewsCarousel"');
    const formAt = answer.html.indexOf('class="phone-section"');
    expect(reviewsAt).toBeGreaterThan(0);
    expect(reviewsAt).toBeLessThan(formAt);
    // Hidden and left out: the illustration and the sections the draft does not list.
    expect(answer.html).not.toContain('class="guarantee');
    // The page's language and theme are the ones asked for.
    expect(answer.html).toMatch(/<html lang="en" dir="ltr"[^>]*data-theme="geozilla"/);
  });

  it('counts nothing and keeps no cookie: a preview, no visit', async () => {
    const response = await preview({ ...request, language: 'ar', theme: 'findo' });
    // No preview, variant, route or touch cookie: only what any console call sets, no more.
    const anyCall = await fetchApp(CONSOLE_CONTENT_API.catalogue);
    expect([...setCookies(response).keys()]).toEqual([...setCookies(anyCall).keys()]);
    expect([...setCookies(response).keys()].filter((name) => name.startsWith('gf_'))).toEqual([]);
    const { html } = (await response.json()) as ContentPreviewAnswer;
    expect(html).toMatch(/<html lang="ar" dir="rtl"[^>]*data-theme="findo"/);
    const state = pageStateOf(html);
    expect(state.analytics.collector).toBeNull();
    expect(state.analytics.pixels.meta).toBeNull();
    expect(html).toContain('class="preview-bar"');
    // The bar names the draft, not the split's variant it is drawn over, and offers no way out
    // of a frame the console holds.
    expect(html).toContain('Preview of the draft — not counted, no ads');
    expect(html).not.toContain('Preview of variant');
    expect(html).not.toContain('End preview');
  });

  it('says what a publish would refuse, by path, and still draws the page', async () => {
    const hidden = structuredClone(DRAFT);
    hidden.screens.one_pager!.sections![2]!.visible = false;
    const answer = (await (
      await preview({ ...request, content: hidden })
    ).json()) as ContentPreviewAnswer;
    expect(answer.issues).toContainEqual({
      path: 'content.screens.one_pager.sections.2.visible',
      message: 'must be true: a landing needs its "phone_form"',
    });
    expect(heading(answer.html)).toBe(HEADLINE);
  });

  it('refuses nothing of an English-only headline, and says what each other language sees', async () => {
    const answer = (await (await preview(request)).json()) as ContentPreviewAnswer;
    expect(answer.issues).toEqual([]);
    const said = await fetchApp(CONSOLE_CONTENT_API.languages, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({ content: DRAFT }),
    });
    const { languages } = (await said.json()) as ContentLanguagesAnswer;
    expect(languages.map((note) => note.language)).toEqual(['ar', 'de', 'es', 'fr', 'pt', 'ru']);
    expect(languages).toContainEqual({
      path: 'content.screens.one_pager.copy.de.screens.one_pager.title',
      language: 'de',
      key: 'screens.one_pager.title',
      kind: 'outdated',
      message:
        'visitors reading German see their current text, outdated until the German text is updated',
    });
    // Behind the console's guards like its other calls; a content it cannot read is refused.
    const crossSite = await fetchApp(CONSOLE_CONTENT_API.languages, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site' },
      body: JSON.stringify({ content: DRAFT }),
    });
    expect(crossSite.status).toBe(403);
    const extra = await fetchApp(CONSOLE_CONTENT_API.languages, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({ content: DRAFT, language: 'de' }),
    });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toEqual({ ok: false, error: 'bad_request' });
    const unreadable = await fetchApp(CONSOLE_CONTENT_API.languages, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({ content: { screens: { one_pager: { copy: 'x' } } } }),
    });
    expect(unreadable.status).toBe(400);
    expect(((await unreadable.json()) as InvalidAnswer).errors[0]?.path).toMatch(/^content\./);
  });

  it('never reaches a visitor: their page is the live one, during and after', async () => {
    await preview(request);
    const visitor = await (await fetchApp('/one_pager')).text();
    expect(heading(visitor)).toBe(LIVE_HEADLINE);
  });

  it('draws the screen as a route of the draft shows it: its flow, from a country', async () => {
    const route = { id: 'spring-sale', flow: 'lp11ch8', plans: ['pro'] };
    const response = await preview({ ...request, route, country: 'DE' });
    expect(response.status).toBe(200);
    const { html } = (await response.json()) as ContentPreviewAnswer;
    expect(html).toContain('Preview of route <strong>spring-sale</strong>');
    const state = pageStateOf(html);
    expect([state.route, state.flow]).toEqual(['spring-sale', 'lp11ch8']);
    expect(state.analytics.collector).toBeNull();
    // The phone form starts at the named country's code, as a visitor from there sees it.
    expect(html).toContain('<option value="DE" selected="">');
    const anywhere = (await (await preview(request)).json()) as ContentPreviewAnswer;
    expect(anywhere.html).not.toContain('<option value="DE" selected="">');
    expect(heading(html)).toBe(HEADLINE);
    // Still no cookie: the route's token stays inside the worker.
    expect([...setCookies(response).keys()].filter((name) => name.startsWith('gf_'))).toEqual([]);
  });

  it('draws a country in production too, where a link’s ?country= is ignored', async () => {
    const { team } = await teamAndStranger();
    const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
    const production = productionApp(
      { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
      { ...PRODUCTION, CONSOLE_PREVIEW_KEY: 'preview-key-of-this-test' },
    );
    const response = await production(CONSOLE_CONTENT_API.preview, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, [ACCESS_TOKEN_HEADER]: await team.sign(accessClaims()) },
      body: JSON.stringify({ ...request, country: 'DE' }),
    });
    expect(response.status).toBe(200);
    const { html } = (await response.json()) as ContentPreviewAnswer;
    expect(html).toContain('<option value="DE" selected="">');
    // A visitor's link naming a country is not the console's request: production ignores it.
    const visitor = await (await production('/one_pager?country=DE')).text();
    expect(visitor).not.toContain('<option value="DE" selected="">');
  });

  it('refuses content that is not a content document, naming the path', async () => {
    const bad = { screens: { one_pager: { sections: [{ id: 'Hero!', visible: true }] } } };
    const response = await preview({ ...request, content: bad });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as InvalidAnswer;
    expect(answer.error).toBe('invalid_config');
    expect(answer.errors).toContainEqual({
      path: 'content.screens.one_pager.sections.0.id',
      message: 'must be a section id such as "reviews"',
    });
  });

  it.each([
    ['a screen not made of sections', { screen: 'checkout' }],
    ['an unknown screen', { screen: 'nowhere' }],
    ['a language not shipped', { language: 'xx' }],
    ['an unknown theme', { theme: 'neon' }],
    ['a route that is not one', { route: { id: 'Spring Sale!', flow: 'default', plans: null } }],
    [
      'a route of too many plans',
      { route: { id: 'a', flow: 'default', plans: 'abcde'.split('') } },
    ],
    ['a route without its flow', { route: { id: 'a', plans: null } }],
    ['a country that is not one', { country: 'Germany' }],
    ['a country in lower case', { country: 'de' }],
    ['a field the document does not name', { zoom: 2 }],
    ['a language that is not text', { language: 7 }],
  ])('answers 400 bad_request to %s', async (_, change) => {
    const response = await preview({ ...request, ...change });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
  });

  it('takes what its documented body takes, and refuses what that body refuses', async () => {
    // The OpenAPI document's schema (shared/console-api/request-schemas.ts) is the worker's parser:
    // a body the schema refuses outside the content is refused here, one it takes is drawn.
    const bodies = [
      request,
      { ...request, country: 'DE' },
      { ...request, theme: 'findo', language: 'ar' },
      { ...request, language: 'xx' },
      { ...request, theme: 'neon' },
      { ...request, country: 'Germany' },
      { ...request, extra: true },
    ];
    for (const body of bodies) {
      const documented = contentPreviewRequest.safeParse(body).success;
      expect((await preview(body)).status, JSON.stringify(body).slice(0, 80)).toBe(
        documented ? 200 : 400,
      );
    }
  });

  it('refuses a cross-site request and a form post, drawing nothing', async () => {
    const crossSite = await preview(request, { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ ok: false, error: 'cross_origin' });
    const form = await fetchApp(CONSOLE_CONTENT_API.preview, {
      method: 'POST',
      headers: {
        'Sec-Fetch-Site': 'same-origin',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: `content=${encodeURIComponent(JSON.stringify(DRAFT))}`,
    });
    expect(form.status).toBe(415);
  });
});

describe('POST /console/api/content/save-offer-preview', () => {
  const OFFER: ContentDocument = {
    screens: {},
    saveOffer: {
      title: { en: 'Before you go', de: 'Bevor Sie gehen' },
      text: { en: 'Write to us & we set it up with you.', de: 'Schreiben Sie uns.' },
    },
  };
  const offerPreview = (body: unknown, headers: Record<string, string> = SAME_ORIGIN) =>
    fetchApp(CONSOLE_CONTENT_API.saveOfferPreview, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });

  it('draws the subscriber’s confirm with the draft’s offer, in the language and theme asked', async () => {
    const response = await offerPreview({ language: 'de', theme: 'findo', content: OFFER });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as SaveOfferPreviewAnswer;
    expect(answer.offered).toBe(true);
    expect(answer.html).toContain('<html lang="de"');
    expect(answer.html).toContain('<h2 id="save-offer-title">Bevor Sie gehen</h2>');
    expect(answer.html).toContain('<p id="save-offer-text">Schreiben Sie uns.</p>');
    expect(answer.html).toContain('id="confirm-cancel"');
    // The text as written, escaped: a marketer's words never become markup.
    const english = (await (
      await offerPreview({ language: 'en', theme: 'geozilla', content: OFFER })
    ).json()) as SaveOfferPreviewAnswer;
    expect(english.html).toContain('Write to us &amp; we set it up with you.');
  });

  it('draws the confirm without an offer where the language has none', async () => {
    const answer = (await (
      await offerPreview({ language: 'fr', theme: 'geozilla', content: OFFER })
    ).json()) as SaveOfferPreviewAnswer;
    expect(answer.offered).toBe(false);
    expect(answer.html).not.toContain('save-offer-title');
    expect(answer.html).toContain('id="confirm-cancel"');
  });

  it('draws a variant laid over the offer, as a save offer test’s arm shows it', async () => {
    const tested: ContentDocument = {
      screens: {},
      saveOffer: {
        ...OFFER.saveOffer!,
        variants: { half_price: { title: { en: 'Stay for half price' } } },
      },
    };
    const answer = (await (
      await offerPreview({
        language: 'en',
        theme: 'geozilla',
        content: tested,
        variant: 'half_price',
      })
    ).json()) as SaveOfferPreviewAnswer;
    // Its own title; the offer's text where the variant writes none.
    expect(answer.html).toContain('<h2 id="save-offer-title">Stay for half price</h2>');
    expect(answer.html).toContain('Write to us &amp; we set it up with you.');
    const asWritten = (await (
      await offerPreview({ language: 'en', theme: 'geozilla', content: tested, variant: null })
    ).json()) as SaveOfferPreviewAnswer;
    expect(asWritten.html).toContain('<h2 id="save-offer-title">Before you go</h2>');
    const unknown = await offerPreview({
      language: 'en',
      theme: 'geozilla',
      content: tested,
      variant: 'third_off',
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'variant',
        message: 'names save offer "third_off", which the content does not define',
      },
    ]);
    // A variant's text has the offer's limit, refused at its own path.
    const long = structuredClone(tested);
    long.saveOffer!.variants!.half_price!.title = { en: 'x'.repeat(501) };
    const over = await offerPreview({ language: 'en', theme: 'geozilla', content: long });
    expect(((await over.json()) as InvalidAnswer).errors).toContainEqual({
      path: 'content.saveOffer.variants.half_price.title.en',
      message: 'must be at most 500 characters',
    });
    const notAName = await offerPreview({
      language: 'en',
      theme: 'geozilla',
      content: tested,
      variant: 3,
    });
    expect(notAName.status).toBe(400);
  });

  it('refuses an offer over its limit at its path, and a call that is not the console’s', async () => {
    const long = { ...OFFER, saveOffer: { ...OFFER.saveOffer, text: { en: 'x'.repeat(501) } } };
    const refused = await offerPreview({ language: 'en', theme: 'geozilla', content: long });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toContainEqual({
      path: 'content.saveOffer.text.en',
      message: 'must be at most 500 characters',
    });
    const unknown = await offerPreview({ language: 'xx', theme: 'geozilla', content: OFFER });
    expect(unknown.status).toBe(400);
    for (const body of [
      { language: 'en', theme: 'neon', content: OFFER },
      { language: 'en', theme: 'geozilla', content: OFFER, draft: 1 },
      { language: 'en', content: OFFER },
    ]) {
      expect(saveOfferPreviewRequest.safeParse(body).success).toBe(false);
      const refusedBody = await offerPreview(body);
      expect(refusedBody.status).toBe(400);
      expect(await refusedBody.json()).toEqual({ ok: false, error: 'bad_request' });
    }
    const crossSite = await offerPreview(
      { language: 'en', theme: 'geozilla', content: OFFER },
      { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
  });
});

describe('GET /console/api/content/catalogue', () => {
  it('lists the landings, their sections with limits and locks, and the texts they read', async () => {
    const catalogue = (await (
      await fetchApp(CONSOLE_CONTENT_API.catalogue)
    ).json()) as ContentCatalogue;
    const onePager = catalogue.screens.find((screen) => screen.id === 'one_pager');
    expect(onePager?.composition).toEqual([
      'hero',
      'phone_form',
      'illustration',
      'claims',
      'features',
      'how_it_works',
      'reviews',
      'guarantee',
      'footer',
    ]);
    expect(onePager?.sections.hero).toMatchObject({ required: true, maxChars: 160 });
    expect(onePager?.sections.hero?.keys).toContain('screens.one_pager.title');
    expect(onePager?.sections.reviews).toMatchObject({ required: false, maxChars: 400 });
    expect(catalogue.languages[0]).toBe('en');
    expect(catalogue.rtl).toEqual(['ar']);
    expect(catalogue.texts.en?.['screens.one_pager.title']).toBe(LIVE_HEADLINE);
  });
});
