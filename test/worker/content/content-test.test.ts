import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { checkFullDocument } from '../../../worker/config/document';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import {
  TESTIMONIALS_FIRST as HEADLINE_TEST,
  HEADLINE_TEST as LANDING_TEST,
} from '../../fixtures/rolled-out';
import { unsigned } from '../../fixtures/signed-cookies';
import {
  CHROME,
  emptyExperiments,
  putExperiments,
  shardRows,
} from '../experiments/experiment-fixtures';
import { freshApp, putConfig, runPageScript } from '../fetch-app';

/**
 * A content test (docs/experiments.md): an experiment whose variant shows a content variant of a
 * screen, a new headline with the testimonials above the form. A visitor drawn into it sees that
 * landing, one in the control today's, and both are exposed on the landing, the first screen
 * whose content differs. What it names must exist, on a screen its layer may change.
 */

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  });
  await putConfig('content', HEADLINE_TEST);
  await putExperiments({ headline: LANDING_TEST });
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

/** A new visitor drawn at `random` (0.2 → a, 0.7 → b), opening the landing. */
async function landingOf(random: number) {
  const fetchApp = freshApp({ random: () => random });
  const headers = { 'user-agent': CHROME };
  const response = await runPageScript(fetchApp, await fetchApp('/', { headers }), { headers });
  expect(response.status).toBe(200);
  const cookies = new Map(
    response.headers.getSetCookie().map((cookie) => {
      const [pair = ''] = cookie.split(';');
      return [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const;
    }),
  );
  return {
    html: await response.text(),
    pin: parsePins(unsigned(cookies.get('gf_x'))).get('headline'),
  };
}

const FORM = 'class="phone-section"';
const REVIEWS = 'What our users say';

describe('a content test', () => {
  it('shows each arm its landing and exposes both on it', async () => {
    const control = await landingOf(0.2);
    expect(control.pin).toBe('a');
    expect(control.html).toContain('>Find out where your loved ones are</h1>');
    expect(control.html.indexOf(REVIEWS)).toBeGreaterThan(control.html.indexOf(FORM));

    const variant = await landingOf(0.7);
    expect(variant.pin).toBe('b');
    expect(variant.html).toContain('>Know your family is safe</h1>');
    expect(variant.html.indexOf(REVIEWS)).toBeLessThan(variant.html.indexOf(FORM));
    // The sections the variant leaves out are not shown.
    expect(variant.html).not.toContain('class="guarantee"');

    const exposed = await shardRows<{ variant: string }>(
      "SELECT variant FROM xp_exposures WHERE experiment = 'headline' ORDER BY variant",
    );
    // Rows come shard by shard.
    expect(exposed.map((row) => row.variant).sort()).toEqual(['a', 'b']);
  });
});

describe('what a content test names', () => {
  const document = (experiment: ExperimentDocument, content: ContentDocument = HEADLINE_TEST) => ({
    split: DEFAULT_SPLIT,
    flows: DEFAULT_FLOWS,
    routing: DEFAULT_ROUTING,
    experiments: { version: 'v1', experiments: { headline: experiment } },
    content,
  });
  const variantB = (
    content: Record<string, string>,
    layer: ExperimentDocument['layer'] = 'landing',
  ) => ({
    ...LANDING_TEST,
    layer,
    variants: { ...LANDING_TEST.variants, b: { weight: 1, change: { content } } },
  });

  it('passes as above', () => {
    expect(checkFullDocument(document(LANDING_TEST))).toMatchObject({ ok: true });
  });

  it('must be a defined content variant, of a screen its layer changes', () => {
    const at = 'experiments.experiments.headline.variants.b.change.content.one_pager';
    expect(checkFullDocument(document(variantB({ one_pager: 'nope' })))).toMatchObject({
      ok: false,
      errors: [
        {
          path: at,
          message:
            'names content "nope" of one_pager, which is not defined: choose one of testimonials_first',
        },
      ],
    });
    expect(checkFullDocument(document(LANDING_TEST, { screens: {} }))).toMatchObject({
      ok: false,
      errors: [
        { path: at, message: expect.stringContaining("add it to the screen's content variants") },
      ],
    });
    expect(
      checkFullDocument(document(variantB({ one_pager: 'testimonials_first' }, 'signup'))),
    ).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([
        {
          path: at,
          message:
            'one_pager is not a signup screen: a test in layer "signup" changes the content of signup screens only; put it in the landing or flow layer',
        },
      ]),
    });
  });

  it('a route that shows a content variant names one that exists', () => {
    const routing = {
      ...DEFAULT_ROUTING,
      routes: [{ id: 'default', flow: 'default', content: { one_pager: 'gone' } }],
    };
    expect(checkFullDocument({ ...document(LANDING_TEST), routing })).toMatchObject({
      ok: false,
      errors: [
        {
          path: 'routing.routes.0.content.one_pager',
          message: 'names content "gone" of one_pager, which is not defined',
        },
      ],
    });
  });
});
