import { describe, expect, it } from 'vitest';
import type { PageState } from '../../../islands/protocol';
import { freshApp, setCookies } from '../fetch-app';

/** The state the page's boot script receives: `boot({...})` in the page's module script. */
async function pageState(response: Response): Promise<PageState> {
  const html = await response.text();
  const json = /boot\((\{.*?\})\);/.exec(html)?.[1];
  if (!json) throw new Error('no boot state in the page');
  return JSON.parse(json) as PageState;
}

describe('the page hands the analytics tracker its context (issue 6)', () => {
  it('names the visitor, the environment and the first-party collector', async () => {
    const response = await freshApp({}, { ENVIRONMENT: 'development' })('/');
    const visitor = setCookies(response).get('userUuid');
    const state = await pageState(response);
    expect(state.analytics).toEqual({
      visitorId: visitor,
      production: false,
      collector: '/e',
      tracking: null,
    });
    expect(state.screen).toBe('one_pager');
  });

  it('names no collector when analytics is switched off, so the tracker sends nothing', async () => {
    const state = await pageState(await freshApp({}, { ANALYTICS: 'off' })('/'));
    expect(state.analytics.collector).toBeNull();
  });
});
