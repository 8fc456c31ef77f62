// @vitest-environment happy-dom
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BottomButton } from '../../../screens/kit/BottomButton';
import { ContinueForm } from '../../../screens/layout/ContinueForm';
import { renderWithIslands } from '../../../screens/layout/Island';
import { Page } from '../../../screens/layout/Page';
import { SCREENS as SCREEN_LIST, type ScreenDefinition } from '../../../screens/registry';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { SCREEN_IDS, type ScreenId } from '../../../shared/screens';

/** Every screen as the worker reads its definition. */
const SCREENS: Record<ScreenId, ScreenDefinition> = SCREEN_LIST;

import { applyPageCss } from './page-css';
import { englishT } from './translate';

async function renderPage(page: ReactNode): Promise<ReadonlySet<string>> {
  const { html, islands } = await renderWithIslands(page);
  document.body.innerHTML = html;
  return islands;
}

const t = englishT();
let removeCss = () => {};

/** A phone's window: SPEC.md §9's measures are the phone's (happy-dom opens 1024 wide). */
function setViewport(size: { width: number; height: number }): void {
  (
    window as unknown as {
      happyDOM: { setViewport(size: { width: number; height: number }): void };
    }
  ).happyDOM.setViewport(size);
}
beforeAll(() => setViewport({ width: 390, height: 844 }));
afterEach(() => {
  setViewport({ width: 390, height: 844 });
  removeCss();
  document.body.innerHTML = '';
});

describe('Page (SPEC.md §2 Layout, Other UI pieces)', () => {
  it('puts the preloader first, then the top bar with the logo, then the screen', async () => {
    await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla}>
        <h1>Screen</h1>
      </Page>,
    );
    const order = [...document.body.children].map((element) => element.className);
    expect(order.slice(0, 3)).toEqual(['preloader', 'top-bar', 'page']);
    const logo = document.querySelector('.top-bar__logo')!;
    expect(logo.getAttribute('role')).toBe('img');
    expect(logo.getAttribute('aria-label')).toBe('Geozilla');
    expect(document.querySelector('main.page h1')?.textContent).toBe('Screen');
  });

  it('carries the global toast area and the global loading overlay on every page', async () => {
    const islands = await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla}>
        x
      </Page>,
    );
    expect([...islands]).toEqual(['ErrorToast', 'LoadingOverlay']);
    const props = (name: string) =>
      JSON.parse(document.querySelector(`[data-island=${name}]`)!.getAttribute('data-props')!);
    expect(props('ErrorToast')).toEqual({ closeLabel: 'Close' });
    expect(props('LoadingOverlay')).toEqual({ label: 'Loading…' });
    expect(document.querySelector('.toast-area')?.getAttribute('role')).toBe('alert');
  });

  it('pads the bottom by 16px, or 88px on a screen with a bottom button (SPEC.md §2 Layout, §9)', async () => {
    removeCss = applyPageCss('geozilla', SCREENS.features.css);
    await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla}>
        x
      </Page>,
    );
    expect(getComputedStyle(document.querySelector('main')!).paddingBottom).toBe('16px');
    await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla} bottomButton>
        x
      </Page>,
    );
    expect(getComputedStyle(document.querySelector('main')!).paddingBottom).toBe('88px');
  });

  it('keeps the content at most 343px wide between 16px side paddings (SPEC.md §9)', async () => {
    removeCss = applyPageCss();
    await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla}>
        x
      </Page>,
    );
    const main = getComputedStyle(document.querySelector('main')!);
    expect(main.maxWidth).toBe('calc(343px + 32px)');
    expect(main.paddingLeft).toBe('16px');
    expect(main.paddingRight).toBe('16px');
  });
});

describe('BottomButton (SPEC.md §2 Layout, §9 button bottom 24px)', () => {
  it('pins the Continue 24px above the bottom edge, as wide as the content', async () => {
    removeCss = applyPageCss('geozilla', SCREENS.features.css);
    await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla} bottomButton>
        <BottomButton>
          <ContinueForm action="/features" next="/checkout_v3_tr" t={t} />
        </BottomButton>
      </Page>,
    );
    const bar = getComputedStyle(document.querySelector('.bottom-button')!);
    expect(bar.position).toBe('fixed');
    expect(bar.bottom).toBe('24px');
    const form = getComputedStyle(document.querySelector('.bottom-button > form')!);
    expect(form.maxWidth).toBe('343px');
    expect(form.marginBottom).toBe('0px');
    expect(getComputedStyle(document.getElementById('continue-button')!).height).toBe('56px');
  });

  it('stands in the features page under its heading at a desktop’s width, a phone’s width wide', async () => {
    setViewport({ width: 1280, height: 800 });
    removeCss = applyPageCss('geozilla', SCREENS.features.css);
    await renderPage(
      <Page t={t} brand={DEFAULT_BRANDS.geozilla} bottomButton>
        <section className="features">
          <h1>Features</h1>
          <BottomButton>
            <ContinueForm action="/features" next="/checkout_v3_tr" t={t} />
          </BottomButton>
        </section>
      </Page>,
    );
    const bar = getComputedStyle(document.querySelector('.bottom-button')!);
    expect(bar.position).toBe('static');
    // The features screen's own wide rules (screens/plans/styles/features.ts): at the start of
    // the column, not stretched across the page as the bar's own rule would leave it.
    expect(bar.justifyContent).toBe('flex-start');
    expect(getComputedStyle(document.querySelector('.bottom-button > form')!).maxWidth).toBe(
      '343px',
    );
  });

  it('is the features and searching screens’, whose Continue is pinned; no other page carries its CSS', () => {
    const pinned = SCREEN_IDS.filter((id) => SCREENS[id].bottomButton);
    expect(pinned.sort()).toEqual(['features', 'searching', 'searching_2', 'searching_ai']);
    for (const id of SCREEN_IDS) {
      // Not the bar's rules, nor a rule of a screen's own that names it (features' wide layout).
      expect((SCREENS[id].css ?? '').includes('bottom-button'), id).toBe(pinned.includes(id));
    }
  });
});
