import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import {
  CONSOLE_CONTENT_API,
  type ContentPreviewAnswer,
} from '../../../shared/console-api/content';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { checkFullDocument } from '../../../worker/config/document';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { SPRING_LANDING, SPRING_SECTIONS } from '../../fixtures/composed-landing';
import { unsigned } from '../../fixtures/signed-cookies';
import {
  CHROME,
  emptyExperiments,
  putExperiments,
  shardRows,
} from '../experiments/experiment-fixtures';
import { freshApp, putConfig, runPageScript, setCookies } from '../fetch-app';

/**
 * A screen a marketer composed from sections (`content.composed`): a flow that names it serves
 * it at its own path, drawn as the screen it starts from with its own sections and copy, and
 * walks on from it; an experiment may send visitors to it or test its content, exposed where it
 * differs; a name the content does not compose is a 404, and a flow may not name one.
 */

const REST = DEFAULT_FLOWS.flows.default!.slice(1);
const SPRING_FLOWS: FlowsDocument = {
  version: 'f1',
  flows: { ...DEFAULT_FLOWS.flows, spring: ['spring_landing' as never, ...REST] },
};

const FORM = 'class="phone-section"';
const REVIEWS = 'What our users say';
const NEW_HEADLINE = '>Know your family is safe</h1>';

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  });
  await putConfig('content', SPRING_LANDING);
  await putConfig('flows', SPRING_FLOWS);
  await putExperiments({});
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

/** Every visitor to `flow`: the route's flow, and the split's (the flow layer's old test). */
async function routeTo(flow: string) {
  await putConfig('routing', { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow }] });
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1, flow } },
  });
}

describe('a composed landing', () => {
  it('is the first screen of a flow that names it, its own arrangement and headline', async () => {
    await routeTo('spring');
    const response = await freshApp()('/?skip_split=true');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(NEW_HEADLINE);
    expect(html.indexOf(REVIEWS)).toBeLessThan(html.indexOf(FORM));
    expect(html).not.toContain('class="guarantee"');
    // Its form posts to its own path and it leads on to the flow's next screen.
    expect(html).toContain('action="/spring_landing?skip_split=true"');
    expect(html).toContain('"next":"/searching?skip_split=true"');
    // The analytics know it as the landing it behaves as.
    expect(html).toContain('"screen":"one_pager"');
  });

  it('is served at its own path, and the screen it starts from stays as in code', async () => {
    await routeTo('spring');
    const fetchApp = freshApp();
    const own = await (await fetchApp('/spring_landing?skip_split=true')).text();
    expect(own).toContain(NEW_HEADLINE);
    const inCode = await fetchApp('/one_pager?skip_split=true');
    const html = await inCode.text();
    expect(html).toContain('>Find out where your loved ones are</h1>');
    expect(html.indexOf(REVIEWS)).toBeGreaterThan(html.indexOf(FORM));
  });

  it('without JavaScript, its phone form moves on to the next screen of its flow', async () => {
    await routeTo('spring');
    const response = await freshApp()('/spring_landing?skip_split=true', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://funnel.test',
        'Sec-Fetch-Site': 'same-origin',
      },
      body: new URLSearchParams({ phone: '+14155552671', country: 'US' }).toString(),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/searching?skip_split=true');
  });

  it('is a 404 under a name the content does not compose, and once taken out', async () => {
    const fetchApp = freshApp();
    expect((await fetchApp('/autumn_landing')).status).toBe(404);
    await putConfig('content', { screens: {} });
    expect((await freshApp()('/spring_landing')).status).toBe(404);
  });
});

/** A new visitor drawn at `random` (0.2 → a, 0.7 → b), opening the site. */
async function visit(random: number, experiment: string) {
  const fetchApp = freshApp({ random: () => random });
  const headers = { 'user-agent': CHROME };
  const response = await runPageScript(fetchApp, await fetchApp('/', { headers }), { headers });
  expect(response.status).toBe(200);
  return {
    html: await response.text(),
    pin: parsePins(unsigned(setCookies(response).get('gf_x'))).get(experiment),
  };
}

const exposedVariants = async (experiment: string) =>
  (
    await shardRows<{ variant: string }>(
      'SELECT variant FROM xp_exposures WHERE experiment = ?1',
      experiment,
    )
  )
    .map((row) => row.variant)
    .sort();

const experimentOf = (
  layer: ExperimentDocument['layer'],
  b: ExperimentDocument['variants'][string]['change'],
): ExperimentDocument => ({
  name: 'Spring landing',
  status: 'running',
  layer,
  audience: {},
  coverage: 1,
  seed: 'spring',
  phase: 1,
  control: 'a',
  variants: { a: { weight: 1, change: {} }, b: { weight: 1, change: b } },
});

describe('a composed landing in an experiment', () => {
  it("is a flow variant's landing, both arms exposed on the landing", async () => {
    await routeTo('default');
    await putExperiments({ spring: experimentOf('flow', { flow: 'spring' }) });
    const control = await visit(0.2, 'spring');
    expect(control.pin).toBe('a');
    expect(control.html).not.toContain(NEW_HEADLINE);
    const variant = await visit(0.7, 'spring');
    expect(variant.pin).toBe('b');
    expect(variant.html).toContain(NEW_HEADLINE);
    expect(await exposedVariants('spring')).toEqual(['a', 'b']);
  });

  it("is a landing test's variant b, swapped in at the landing", async () => {
    await routeTo('default');
    await putExperiments({
      spring: experimentOf('landing', { screens: { landing: 'spring_landing' as never } }),
    });
    const control = await visit(0.2, 'spring');
    expect(control.html).not.toContain(NEW_HEADLINE);
    const variant = await visit(0.7, 'spring');
    expect(variant.pin).toBe('b');
    expect(variant.html).toContain(NEW_HEADLINE);
    expect(variant.html).toContain('action="/spring_landing"');
    expect(await exposedVariants('spring')).toEqual(['a', 'b']);
  });

  it('has content variants a landing test shows', async () => {
    const content: ContentDocument = structuredClone(SPRING_LANDING);
    const formFirst = ['hero', 'phone_form', 'reviews', ...SPRING_SECTIONS.slice(3)];
    content.composed!.spring_landing!.variants = {
      form_first: { sections: formFirst.map((id) => ({ id, visible: true })) },
    };
    await putConfig('content', content);
    await routeTo('spring');
    await putExperiments({
      spring: experimentOf('landing', { content: { spring_landing: 'form_first' } }),
    });
    const control = await visit(0.2, 'spring');
    expect(control.html.indexOf(REVIEWS)).toBeLessThan(control.html.indexOf(FORM));
    const variant = await visit(0.7, 'spring');
    expect(variant.html).toContain(NEW_HEADLINE);
    expect(variant.html.indexOf(REVIEWS)).toBeGreaterThan(variant.html.indexOf(FORM));
    expect(await exposedVariants('spring')).toEqual(['a', 'b']);
  });
});

describe('what names a composed screen', () => {
  const document = (content: ContentDocument, flows: FlowsDocument = SPRING_FLOWS) => ({
    split: DEFAULT_SPLIT,
    flows,
    routing: { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow: 'spring' }] },
    experiments: { version: 'v1', experiments: {} },
    content,
  });

  it('passes as above', () => {
    expect(checkFullDocument(document(SPRING_LANDING))).toMatchObject({ ok: true });
  });

  it('refuses a flow naming a screen the content does not compose, or no longer does', () => {
    expect(checkFullDocument(document({ screens: {} }))).toMatchObject({
      ok: false,
      errors: [
        {
          path: 'flows.flows.spring.0',
          message:
            'names screen "spring_landing", which is no screen in code and not composed in the content: compose it under content.composed, or choose another screen',
        },
      ],
    });
    // Renamed: the flow still names the old name.
    const renamed = { screens: {}, composed: { summer: SPRING_LANDING.composed!.spring_landing! } };
    expect(checkFullDocument(document(renamed))).toMatchObject({
      ok: false,
      errors: [{ path: 'flows.flows.spring.0' }],
    });
  });

  it("refuses a route's or an experiment's content variant the composed screen lacks", () => {
    const routing = {
      ...DEFAULT_ROUTING,
      routes: [{ id: 'default', flow: 'spring', content: { spring_landing: 'gone' } }],
    };
    expect(checkFullDocument({ ...document(SPRING_LANDING), routing })).toMatchObject({
      ok: false,
      errors: [
        {
          path: 'routing.routes.0.content.spring_landing',
          message: 'names content "gone" of spring_landing, which is not defined',
        },
      ],
    });
    const experiments = {
      version: 'v1',
      experiments: { spring: experimentOf('signup', { content: { spring_landing: 'gone' } }) },
    };
    const checked = checkFullDocument({ ...document(SPRING_LANDING), experiments });
    expect(checked).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([
        {
          path: 'experiments.experiments.spring.variants.b.change.content.spring_landing',
          message: expect.stringContaining('names content "gone" of spring_landing'),
        },
      ]),
    });
  });

  it('swaps in at its slot only, and only once composed', () => {
    const swapTo = (screen: string) => ({
      version: 'v1',
      experiments: {
        spring: experimentOf('signup', { screens: { signup: screen as never } }),
      },
    });
    const at = 'experiments.experiments.spring.variants.b.change.screens.signup';
    expect(
      checkFullDocument({ ...document(SPRING_LANDING), experiments: swapTo('spring_landing') }),
    ).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([
        {
          path: at,
          message: expect.stringMatching(
            /^"spring_landing" is not a signup screen: choose one of /,
          ),
        },
      ]),
    });
    const landing = {
      version: 'v1',
      experiments: {
        spring: experimentOf('landing', { screens: { landing: 'autumn_landing' as never } }),
      },
    };
    expect(checkFullDocument({ ...document(SPRING_LANDING), experiments: landing })).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([
        {
          path: 'experiments.experiments.spring.variants.b.change.screens.landing',
          message: expect.stringContaining('one_pager_l2, spring_landing'),
        },
      ]),
    });
  });

  it('holds a landing test of its content to the landing layer', () => {
    const content: ContentDocument = structuredClone(SPRING_LANDING);
    content.composed!.spring_landing!.variants = { plain: { sections: undefined } };
    const experiments = {
      version: 'v1',
      experiments: { spring: experimentOf('signup', { content: { spring_landing: 'plain' } }) },
    };
    expect(checkFullDocument({ ...document(content), experiments })).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([
        {
          path: 'experiments.experiments.spring.variants.b.change.content.spring_landing',
          message: expect.stringContaining('spring_landing is not a signup screen'),
        },
      ]),
    });
  });
});

describe("the console's preview of a composed screen", () => {
  const preview = (fetchApp: ReturnType<typeof freshApp>, content: ContentDocument) =>
    fetchApp(CONSOLE_CONTENT_API.preview, {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        screen: 'spring_landing',
        language: 'en',
        theme: 'geozilla',
        content,
      }),
    });

  it('draws it from the draft, says its problems at its paths, and shows visitors nothing', async () => {
    await putConfig('content', { screens: {} });
    const fetchApp = freshApp();
    const draft: ContentDocument = structuredClone(SPRING_LANDING);
    draft.composed!.spring_landing!.copy = { en: { 'screens.one_pager.title': 'Only English' } };
    const response = await preview(fetchApp, draft);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as ContentPreviewAnswer;
    expect(answer.html).toContain('>Only English</h1>');
    // English alone is no refusal (what other languages see: worker/content/languages.ts).
    expect(answer.issues).toEqual([]);
    expect((await fetchApp('/spring_landing')).status).toBe(404);
  });

  it('refuses a screen the draft does not compose', async () => {
    const response = await preview(freshApp(), { screens: {} });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
  });
});
