// @vitest-environment happy-dom
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { IslandCollector, IslandContext } from '../../../screens/layout/Island';
import { Page } from '../../../screens/layout/Page';
import { applyPageCss } from './page-css';
import { englishT } from './translate';

function renderPage(page: ReactNode): IslandCollector {
  const islands = new IslandCollector();
  document.body.innerHTML = renderToStaticMarkup(
    <IslandContext.Provider value={islands}>{page}</IslandContext.Provider>,
  );
  return islands;
}

const t = englishT();
let removeCss = () => {};
afterEach(() => {
  removeCss();
  document.body.innerHTML = '';
});

describe('Page (SPEC.md §2 Layout, Other UI pieces)', () => {
  it('puts the preloader first, then the top bar with the logo, then the screen', () => {
    renderPage(
      <Page t={t}>
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

  it('carries the global toast area and the global loading overlay on every page', () => {
    const islands = renderPage(<Page t={t}>x</Page>);
    expect([...islands.names]).toEqual(['ErrorToast', 'LoadingOverlay']);
    const props = (name: string) =>
      JSON.parse(document.querySelector(`[data-island=${name}]`)!.getAttribute('data-props')!);
    expect(props('ErrorToast')).toEqual({ closeLabel: 'Close' });
    expect(props('LoadingOverlay')).toEqual({ label: 'Loading…' });
    expect(document.querySelector('.toast-area')?.getAttribute('role')).toBe('alert');
  });

  it('pads the bottom by 16px, as no screen has a bottom button (SPEC.md §2 Layout, §9)', () => {
    removeCss = applyPageCss();
    renderPage(<Page t={t}>x</Page>);
    expect(getComputedStyle(document.querySelector('main')!).paddingBottom).toBe('16px');
  });

  it('keeps the content at most 343px wide between 16px side paddings (SPEC.md §9)', () => {
    removeCss = applyPageCss();
    renderPage(<Page t={t}>x</Page>);
    const main = getComputedStyle(document.querySelector('main')!);
    expect(main.maxWidth).toBe('calc(343px + 32px)');
    expect(main.paddingLeft).toBe('16px');
    expect(main.paddingRight).toBe('16px');
  });
});
