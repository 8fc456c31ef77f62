import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type {
  CheckAnswer,
  ConfigDocument,
  ConsoleState,
  PublishAnswer,
} from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import { SPRING_LANDING, SPRING_SECTIONS } from '../../fixtures/composed-landing';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';
import { freshApp } from '../fetch-app';

/**
 * A marketer's content published through the console with the rest of the config, against the
 * real KV and D1: the landing a new visitor is served shows it, a content the landing cannot take
 * is refused at its path with nothing written, and a rollback brings the screen in code back.
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

async function live(): Promise<ConfigDocument> {
  return ((await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState).live;
}

/** The landing as a new visitor gets it, from a worker that reads KV afresh. */
async function landing(language = 'en'): Promise<string> {
  const response = await freshApp()('/one_pager?skip_split=true', {
    headers: { 'Accept-Language': language },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** The page's screen, without the visitor's own ids and the config version around it. */
const mainOf = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

const ORDER = ['hero', 'reviews', 'phone_form', 'illustration', 'claims', 'features'];
const REST = ['how_it_works', 'guarantee', 'footer'];
const HEADLINE = HEADLINE_IN_EVERY_LANGUAGE;

const TESTIMONIALS_FIRST: ContentDocument = {
  screens: {
    one_pager: {
      sections: [...ORDER, ...REST].map((id) => ({ id, visible: true })),
      copy: Object.fromEntries(
        Object.entries(HEADLINE).map(([language, text]) => [
          language,
          { 'screens.one_pager.title': text },
        ]),
      ),
    },
  },
};

describe('content published with the config', () => {
  it('reaches the landing in every language; refused content writes nothing; a rollback undoes it', async () => {
    const inCode = await landing();
    expect(inCode.indexOf('What our users say')).toBeGreaterThan(
      inCode.indexOf('class="phone-section"'),
    );

    const published = await post(CONSOLE_API.publish, {
      base: null,
      document: { ...(await live()), content: TESTIMONIALS_FIRST },
      note: 'testimonials above the form',
    });
    expect(published.status).toBe(200);
    const { version } = (await published.json()) as PublishAnswer;

    const english = await landing();
    expect(english).toContain('>Know your family is safe</h1>');
    expect(english).toContain('<title>Know your family is safe');
    expect(english.indexOf('What our users say')).toBeLessThan(
      english.indexOf('class="phone-section"'),
    );
    expect(await landing('de')).toContain('>Wissen, dass die Familie sicher ist</h1>');

    // The form a landing needs, hidden: refused at its path, KV and the history unchanged.
    const kvBefore = await env.FUNNEL_CONFIG.get('content', 'text');
    const hidden = structuredClone(TESTIMONIALS_FIRST);
    hidden.screens.one_pager!.sections![2]!.visible = false;
    const refused = await post(CONSOLE_API.publish, {
      base: version.seq,
      document: { ...(await live()), content: hidden },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'content.screens.one_pager.sections.2.visible',
        message: 'must be true: a landing needs its "phone_form"',
      },
    ]);
    expect(await env.FUNNEL_CONFIG.get('content', 'text')).toBe(kvBefore);

    // A second version, then back to the first: the landing is the screen in code again.
    const again = await post(CONSOLE_API.publish, {
      base: version.seq,
      document: { ...(await live()), content: { screens: {} } },
    });
    expect(again.status).toBe(200);
    expect(mainOf(await landing())).toBe(mainOf(inCode));
    const back = await post(CONSOLE_API.rollback, { base: version.seq + 1, seq: version.seq });
    expect(back.status).toBe(200);
    expect(await landing()).toContain('>Know your family is safe</h1>');
  });
});

describe('content in the review and the history', () => {
  /**
   * The check's diff of the live content with `composed` as its composed screens, then the diff
   * History lists once it is published.
   */
  async function checkThenPublish(composed: ContentDocument['composed']) {
    const state = (await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState;
    const content = { ...state.live.content, composed };
    const request = { base: state.head?.seq ?? null, document: { ...state.live, content } };
    const checked = (await (await post(CONSOLE_API.check, request)).json()) as CheckAnswer;
    expect((await post(CONSOLE_API.publish, request)).status).toBe(200);
    const versions = (await (await consoleApp(CONSOLE_API.versions)).json()) as VersionsAnswer;
    return { checked: checked.diff, listed: versions.versions[0]?.diff };
  }

  it('lists a newly composed screen, then a content variant of it alone, like any change', async () => {
    const composed = await checkThenPublish(SPRING_LANDING.composed);
    const spring = SPRING_LANDING.composed!.spring_landing!;
    const newScreen = [{ path: 'content.composed.spring_landing', kind: 'added', after: spring }];
    expect(composed.checked).toEqual(newScreen);
    expect(composed.listed).toEqual(newScreen);

    // The reviews above the heading, in a variant: nothing else of the document changes.
    const order = ['reviews', ...SPRING_SECTIONS.filter((id) => id !== 'reviews')];
    const variant = { sections: order.map((id) => ({ id, visible: true })) };
    const varied = await checkThenPublish({
      spring_landing: { ...spring, variants: { reviews_first: variant } },
    });
    const newVariant = [
      {
        path: 'content.composed.spring_landing.variants.reviews_first',
        kind: 'added',
        after: variant,
        sectionsOver: spring.sections,
      },
    ];
    expect(varied.checked).toEqual(newVariant);
    expect(varied.listed).toEqual(newVariant);
  });
});
