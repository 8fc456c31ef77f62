// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $copy, $copySelected } from '../../../console/copy/stores/copy';
import { setWeight } from '../../../console/kit/stores/draft';
import { $page, followAddress, openPage } from '../../../console/kit/stores/page';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { Console } from '../../../console/page/Console';
import { CONSOLE_API } from '../../../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../../../shared/console-api/content';
import { CONSOLE_COPY_API, type CopyState } from '../../../shared/console-api/copy';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import { consoleState, EMPTY_CATALOGUE, EMPTY_COPY, resultsAnswer } from './fixtures';

/**
 * The console as pages (console/page/Console.tsx, console/kit/stores/page.ts): each area at its
 * own address, drawn alone; the navigation's links followed in the page, focus on the page's
 * heading, Back and Forward; an address of the one-page console opening its area's page; the
 * header's search finding an experiment, a route, a version and a text, each a link to its page;
 * and the draft's edits said on every page, with the way to review them.
 */

const COPY: CopyState = {
  ...EMPTY_COPY,
  areas: [{ id: 'landing', shows: 'the landing' }],
  keys: [
    {
      key: 'landing.phone.locate',
      area: 'landing',
      english: 'Locate',
      bundled: { en: 'Locate' },
    },
  ],
};

/** The worker's /console/api, answering every read these pages make. */
function stubWorker() {
  const state = consoleState();
  const answers: Record<string, unknown> = {
    [CONSOLE_API.state]: state,
    [CONSOLE_API.versions]: {
      versions: [{ ...state.head!, note: 'Paywall price for the US', diff: [] }],
    },
    [CONSOLE_RESULTS_PATH]: resultsAnswer(),
    [CONSOLE_COPY_API.state]: COPY,
    [CONSOLE_COPY_API.versions]: { versions: [] },
    [CONSOLE_CONTENT_API.catalogue]: EMPTY_CATALOGUE,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body = answers[url];
      return new Response(JSON.stringify(body ?? { ok: false, error: 'bad_request' }), {
        status: body === undefined ? 404 : 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

async function openConsoleAt(path: string) {
  history.replaceState(null, '', path);
  stubWorker();
  followAddress();
  render(<Console />);
  await act(loadConsole);
}

/** What the browser does on Back or Forward: the entry's address, then popstate. */
function browserMovesTo(path: string) {
  act(() => {
    history.replaceState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
}

const nav = () => within(screen.getByRole('navigation', { name: 'Sections' }));
const pageHeading = () => screen.getAllByRole('heading', { level: 2 })[0] as HTMLElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  openPage('overview');
  $copy.set({ kind: 'loading' });
  $copySelected.set(null);
});

describe('the console’s pages', () => {
  it('draws one area a page; a link opens the next at its address, Back and Forward return', async () => {
    await openConsoleAt('/console');
    expect(pageHeading().textContent).toBe('Overview');
    expect(screen.queryByRole('region', { name: 'Traffic' })).toBeNull();
    expect(nav().getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');

    const traffic = nav().getByRole('link', { name: 'Traffic' });
    expect(traffic.getAttribute('href')).toBe('/console/traffic');
    await userEvent.click(traffic);
    expect(location.pathname).toBe('/console/traffic');
    expect(screen.getByRole('region', { name: 'Traffic' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Overview' })).toBeNull();
    expect(traffic.getAttribute('aria-current')).toBe('page');
    expect(nav().getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBeNull();
    expect(document.title).toBe('Traffic · Geofunnel console');
    // Focus on the new page's heading, so a screen reader says where the marketer is now.
    await waitFor(() => expect(document.activeElement).toBe(pageHeading()));

    // The browser's Back and Forward, as happy-dom has no history to walk: the address is the
    // entry's and popstate fires (Chromium's own: test/browser/console-by-mouse.test.ts).
    browserMovesTo('/console');
    expect(pageHeading().textContent).toBe('Overview');
    browserMovesTo('/console/traffic');
    expect(pageHeading().textContent).toBe('Traffic');
  });

  it('focuses the new page’s heading, never the old one’s while the new page is still drawing', async () => {
    // The console as React had drawn it before the click: the Overview, its heading focusable.
    document.body.innerHTML =
      '<a href="/console/traffic">Traffic</a><main class="console-main" data-page="/console"><h2 tabindex="-1">Overview</h2></main>';
    const link = document.querySelector('a')!;
    link.focus();
    openPage('traffic');
    // Frames pass with the Overview still drawn (a busy machine's React behind): its heading,
    // about to go, must not take the focus, which would fall to the body with it.
    for (let frame = 0; frame < 5; frame += 1) {
      await new Promise((done) => requestAnimationFrame(done));
    }
    expect(document.activeElement).toBe(link);
    // Traffic drawn: its heading takes the focus.
    document.querySelector('main')!.outerHTML =
      '<main class="console-main" data-page="/console/traffic"><h2>Traffic</h2></main>';
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Traffic'));
    document.body.innerHTML = '';
  });

  it('focuses a page drawn after half a minute of loading, and not one opened before another', async () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] });
    try {
      document.body.innerHTML =
        '<a href="/console/traffic">Traffic</a><main class="console-main" data-page="/console"><h2 tabindex="-1">Overview</h2></main>';
      const link = document.querySelector('a')!;
      link.focus();
      openPage('traffic');
      // Half a minute of frames while the live config still loads on a busy machine.
      vi.advanceTimersByTime(30_000);
      expect(document.activeElement).toBe(link);
      document.querySelector('main')!.outerHTML =
        '<main class="console-main" data-page="/console/traffic"><h2>Traffic</h2></main>';
      await waitFor(() => expect(document.activeElement?.textContent).toBe('Traffic'));

      // Traffic opened, then History before Traffic is drawn: Traffic drawn takes no focus.
      openPage('overview');
      link.focus();
      openPage('traffic');
      openPage('history');
      vi.advanceTimersByTime(100);
      document.querySelector('main')!.outerHTML =
        '<main class="console-main" data-page="/console/traffic"><h2>Traffic again</h2></main>';
      await new Promise((done) => setTimeout(done, 50));
      expect(document.activeElement).toBe(link);
      document.querySelector('main')!.outerHTML =
        '<main class="console-main" data-page="/console/history"><h2>History</h2></main>';
      await waitFor(() => expect(document.activeElement?.textContent).toBe('History'));
    } finally {
      vi.useRealTimers();
      document.body.innerHTML = '';
    }
  });

  it('opens an address of the one-page console at its area’s page, under the page’s address', async () => {
    await openConsoleAt('/console#edit');
    expect(location.pathname).toBe('/console/publish');
    expect(location.hash).toBe('');
    expect(pageHeading().textContent).toBe('Edit and publish');
  });

  it('opens an experiment’s own page at its address: its card alone, and the way back to all', async () => {
    await openConsoleAt('/console/experiments/landing-all');
    const area = within(screen.getByRole('region', { name: 'Experiments' }));
    expect(
      area.getAllByRole('article').map((card) => card.getAttribute('aria-labelledby')),
    ).toHaveLength(1);
    expect(area.getByRole('article', { name: /All-in-one landing/ })).toBeTruthy();
    expect(area.getByRole('link', { name: 'All experiments' }).getAttribute('href')).toBe(
      '/console/experiments',
    );
    expect(nav().getByRole('link', { name: 'Experiments' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('finds an experiment, a route, a version and a text by name, each a link to its page', async () => {
    await openConsoleAt('/console');
    const user = userEvent.setup();
    const search = screen.getByRole('searchbox', { name: 'Search the console' });
    await user.type(search, 'all-in-one');
    const found = () => within(screen.getByRole('list', { name: 'Found in the console' }));
    await user.click(
      found().getByRole('link', { name: 'Experiment All-in-one landing (landing-all)' }),
    );
    expect(location.pathname).toBe('/console/experiments/landing-all');
    expect((search as HTMLInputElement).value).toBe('');

    await user.type(search, 'US price');
    await user.click(found().getByRole('link', { name: /^Version v2: Paywall price for the US/ }));
    expect(location.pathname).toBe('/console/history/v2');
    expect(screen.getByRole('article', { name: /v2/ })).toBeTruthy();

    await user.type(search, 'default route');
    expect(
      found().getByRole('link', { name: 'Route default, in Traffic' }).getAttribute('href'),
    ).toBe('/console/traffic');
    await user.clear(search);

    // The texts are read when the search is first used, as the Copy page reads them.
    await user.type(search, 'locate');
    const text = await waitFor(() =>
      found().getByRole('link', { name: 'Text “Locate” (landing.phone.locate), in Copy' }),
    );
    await user.click(text);
    expect(location.pathname).toBe('/console/copy');
    expect($copySelected.get()).toBe('landing.phone.locate');

    await user.type(search, 'zzz-nothing');
    expect(screen.getByText('Nothing found: try a name, an id or other words.')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect((search as HTMLInputElement).value).toBe('');
  });

  it('says on every page but the publish one that the draft has edits, with the way to review them', async () => {
    await openConsoleAt('/console/traffic');
    expect(screen.queryByText(/Your draft has edits/)).toBeNull();
    act(() => setWeight('lp17', 35));
    const notice = screen.getByText(/Your draft has edits that are not published yet/);
    await userEvent.click(within(notice).getByRole('link', { name: 'Review and publish them' }));
    expect(location.pathname).toBe('/console/publish');
    expect($page.get()).toEqual({ area: 'publish', id: null });
    expect(screen.queryByText(/Your draft has edits/)).toBeNull();
  });
});
