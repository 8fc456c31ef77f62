import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { pinnedToVariant } from '../../fixtures/signed-cookies';
import { freshApp, putConfig } from '../fetch-app';
import { pageStateOf } from '../page-html';

/**
 * Which screen follows which in every flow of SPEC.md §2: a visitor whose cookie holds the flow's
 * variant gets the flow's first screen at `/`, and each screen names the next one in its page
 * state, the visitor's query kept; the last names none. Chromium walks every distinct screen of
 * the flows, moving on as the page says, in test/browser/flows.test.ts (default's first three in
 * sign-up.test.ts's journey).
 */

afterEach(() => reset());

/** One variant per flow, so a visitor's cookie can pick the flow. */
const SPLIT_WITH_EVERY_FLOW = {
  version: 'walk',
  defaultVariant: 'default',
  variants: Object.fromEntries(
    Object.keys(DEFAULT_FLOWS.flows).map((flow) => [flow.replace(/_/g, '-'), { weight: 1, flow }]),
  ),
};

const QUERY = '?utm_source=walk&gclid=g-1';

describe('the screens of every flow of SPEC.md §2', () => {
  it.each(Object.entries(DEFAULT_FLOWS.flows))(
    'flow %s: from / to its last screen, each naming the next',
    async (flow, screens) => {
      await putConfig('split', SPLIT_WITH_EVERY_FLOW);
      const fetchApp = freshApp();
      const cookies = await pinnedToVariant('https://funnel.test/', flow.replace(/_/g, '-'));
      const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');

      for (const [step, screen] of screens.entries()) {
        const path = `${step === 0 ? '/' : `/${screen}`}${QUERY}`;
        const res = await fetchApp(path, { headers: { cookie } });
        expect(res.status, path).toBe(200);
        const state = pageStateOf(await res.text());
        const next = screens[step + 1];
        expect([state.flow, state.screen, state.next], path).toEqual([
          flow,
          screen,
          next ? `/${next}${QUERY}` : null,
        ]);
      }
    },
  );
});
