import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { CheckAnswer, ConfigDocument, ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import {
  CONSOLE_CONTENT_API,
  type ContentLanguagesAnswer,
  type ContentPreviewAnswer,
} from '../../../shared/console-api/content';
import { CONSOLE_COPY_API, type CopyState } from '../../../shared/console-api/copy';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { VISITOR_COOKIE } from '../../../worker/request/cookies';
import { unsigned } from '../../fixtures/signed-cookies';
import { CHROME, emptyExperiments, shardRows } from '../experiments/experiment-fixtures';
import { freshApp, putConfig, runPageScript } from '../fetch-app';

/**
 * Copy in one language at a time (docs/marketers.md, "One language at a time"), through the
 * console's publish and a real visitor's page: an English-only headline and an English-only
 * headline test are published as they are; a German visitor keeps the German headline they had
 * and is neither shown nor counted in the test, as the console's preview answer said before the
 * publish; an English visitor gets both.
 */

const TITLE = 'screens.one_pager.title';
const NEW_ENGLISH = 'Find your family in one tap';
const TESTED_ENGLISH = 'Your family, found in seconds';
const GERMAN_BEFORE = 'Finde heraus, wo deine Liebsten sind';

const CONTENT: ContentDocument = {
  screens: {
    one_pager: {
      copy: { en: { [TITLE]: NEW_ENGLISH } },
      variants: { seconds: { copy: { en: { [TITLE]: TESTED_ENGLISH } } } },
    },
  },
};

const HEADLINE_TEST: ExperimentDocument = {
  name: 'Headline in seconds',
  status: 'running',
  layer: 'landing',
  audience: {},
  coverage: 1,
  seed: 'seconds',
  phase: 1,
  control: 'a',
  variants: {
    a: { weight: 1, change: {} },
    b: { weight: 1, change: { content: { one_pager: 'seconds' } } },
  },
};

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  });
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

/** The landing's headline a new visitor gets at `random` (0.7 draws b), and their pin, if any. */
async function landingOf(random: number, headers: Record<string, string>, path = '/') {
  const fetchApp = freshApp({ random: () => random });
  const sent = { 'user-agent': CHROME, ...headers };
  const response = await runPageScript(fetchApp, await fetchApp(path, { headers: sent }), {
    headers: sent,
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  const cookies = new Map(
    response.headers.getSetCookie().map((cookie) => {
      const [pair = ''] = cookie.split(';');
      return [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const;
    }),
  );
  const pins = cookies.get('gf_x');
  return {
    headline: html.match(/<h1 id="screen-title">([^<]+)<\/h1>/)?.[1],
    pin: pins === undefined ? undefined : parsePins(unsigned(pins)).get('seconds'),
    visitor: cookies.get(VISITOR_COOKIE),
  };
}

const exposuresOf = (visitor: string | undefined) =>
  shardRows<{ variant: string }>(
    "SELECT variant FROM xp_exposures WHERE experiment = 'seconds' AND visitor_id = ?",
    visitor ?? '',
  );

describe('an English-only headline and headline test', () => {
  it('is said, published, and served as said: German keeps its text and stays out of the test', async () => {
    const consoleApp = freshApp();
    // Before the publish, the worker's answer to the content editor says what German visitors
    // will get, and its preview refuses nothing.
    const preview = await consoleApp(CONSOLE_CONTENT_API.preview, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({
        screen: 'one_pager',
        language: 'de',
        theme: 'geozilla',
        content: CONTENT,
      }),
    });
    expect(((await preview.json()) as ContentPreviewAnswer).issues).toEqual([]);
    const said = await consoleApp(CONSOLE_CONTENT_API.languages, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({ content: CONTENT }),
    });
    const { languages } = (await said.json()) as ContentLanguagesAnswer;
    const german = languages.filter((note) => note.language === 'de');
    expect(german).toEqual([
      expect.objectContaining({
        path: `content.screens.one_pager.copy.de.${TITLE}`,
        kind: 'outdated',
        message:
          'visitors reading German see their current text, outdated until the German text is updated',
      }),
      expect.objectContaining({
        path: `content.screens.one_pager.variants.seconds.copy.de.${TITLE}`,
        kind: 'untested',
        message:
          'visitors reading German are not shown a test of this variant and are not counted, until it has its German text',
      }),
    ]);

    const state = (await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState;
    const document: ConfigDocument = {
      ...state.live,
      content: CONTENT,
      experiments: { ...state.live.experiments, experiments: { seconds: HEADLINE_TEST } },
    };
    // The review of the whole draft says it too, and refuses nothing.
    const checked = await consoleApp(CONSOLE_API.check, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({ base: state.head?.seq ?? null, document }),
    });
    const review = (await checked.json()) as CheckAnswer;
    expect(review.ok).toBe(true);
    expect(review.languages?.filter((note) => note.language === 'de')).toEqual(german);

    const published = await consoleApp(CONSOLE_API.publish, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({ base: state.head?.seq ?? null, document, note: 'English first' }),
    });
    expect(await published.json()).toMatchObject({ ok: true });

    // An English visitor drawn into b sees the tested headline, one in a the new headline.
    const english = await landingOf(0.7, { 'accept-language': 'en' });
    expect([english.headline, english.pin]).toEqual([TESTED_ENGLISH, 'b']);
    expect(await exposuresOf(english.visitor)).toEqual([{ variant: 'b' }]);
    const control = await landingOf(0.2, { 'accept-language': 'en' });
    expect([control.headline, control.pin]).toEqual([NEW_ENGLISH, 'a']);

    // A German visitor, by their browser or by ?custom_lng=de, at the same draws: the German
    // headline they had, no pin, no exposure.
    for (const random of [0.2, 0.7]) {
      for (const visit of [
        landingOf(random, { 'accept-language': 'de-DE,de;q=0.9' }),
        landingOf(random, {}, '/?custom_lng=de'),
      ]) {
        const visitor = await visit;
        expect([visitor.headline, visitor.pin]).toEqual([GERMAN_BEFORE, undefined]);
        expect(await exposuresOf(visitor.visitor)).toEqual([]);
      }
    }
  });
});

describe('an English headline changed again after its German was written', () => {
  const GERMAN = 'Finde deine Familie mit einem Tipp';
  /** The landing's headline in `english`, its German `german`; its test variant kept. */
  const headline = (english: string, german: string): ContentDocument => ({
    screens: {
      one_pager: {
        copy: { en: { [TITLE]: english }, de: { [TITLE]: german } },
        variants: { seconds: { copy: { en: { [TITLE]: TESTED_ENGLISH } } } },
      },
    },
  });

  it('says before publishing that German visitors keep the translation of the English before', async () => {
    const consoleApp = freshApp();
    const post = (path: string, body: unknown) =>
      consoleApp(path, { method: 'POST', headers: SAME_ORIGIN, body: JSON.stringify(body) });
    /** The German notes on the landing's own headline (its variant's are another matter). */
    const germanOf = (languages: CheckAnswer['languages']) =>
      (languages ?? []).filter(
        (note) => note.language === 'de' && !note.path.includes('.variants.'),
      );
    const draft = async (content: ContentDocument) => {
      const state = (await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState;
      return { base: state.head?.seq ?? null, document: { ...state.live, content } };
    };
    // Published: the German written for the English of the same publish.
    const published = await post(CONSOLE_API.publish, {
      ...(await draft(headline(NEW_ENGLISH, GERMAN))),
      note: 'German too',
    });
    expect(await published.json()).toMatchObject({ ok: true });
    const live = await post(CONSOLE_CONTENT_API.languages, {
      content: headline(NEW_ENGLISH, GERMAN),
    });
    expect(germanOf(((await live.json()) as ContentLanguagesAnswer).languages)).toEqual([]);

    // The English changed again, the German left as it was: the editor and the review say so.
    const outdated = [
      expect.objectContaining({
        path: `content.screens.one_pager.copy.de.${TITLE}`,
        kind: 'outdated',
        message:
          'visitors reading German see their current text, outdated until the German text is updated',
      }),
    ];
    const again = headline('Your family on one map', GERMAN);
    const edited = await post(CONSOLE_CONTENT_API.languages, { content: again });
    expect(germanOf(((await edited.json()) as ContentLanguagesAnswer).languages)).toEqual(outdated);
    const review = (await (
      await post(CONSOLE_API.check, await draft(again))
    ).json()) as CheckAnswer;
    expect(review).toMatchObject({ ok: true });
    expect(germanOf(review.languages)).toEqual(outdated);
    // The German written again with it: nothing left to say.
    const both = headline('Your family on one map', 'Deine Familie auf einer Karte');
    const rewritten = await post(CONSOLE_API.check, await draft(both));
    expect(germanOf(((await rewritten.json()) as CheckAnswer).languages)).toEqual([]);

    // Published English alone: the versions say the German was written for the English
    // before, so the Copy area's to-do lists it, and the editor marks it, until it is written.
    const englishAlone = await post(CONSOLE_API.publish, { ...(await draft(again)), note: 'en' });
    expect(await englishAlone.json()).toMatchObject({ ok: true });
    const todo = async () => {
      const copyState = (await (await consoleApp(CONSOLE_COPY_API.state)).json()) as CopyState;
      return germanOf(copyState.outdated);
    };
    expect(await todo()).toEqual(outdated);
    const marked = await post(CONSOLE_CONTENT_API.languages, { content: again });
    expect(germanOf(((await marked.json()) as ContentLanguagesAnswer).languages)).toEqual(outdated);
    const updated = await post(CONSOLE_API.publish, { ...(await draft(both)), note: 'de' });
    expect(await updated.json()).toMatchObject({ ok: true });
    expect(await todo()).toEqual([]);
  });
});
