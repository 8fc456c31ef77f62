// @vitest-environment happy-dom
import { createElement, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hydrateIslands } from '../../../islands/hydrate';
import { IslandRoot } from '../../../islands/island-root';
import {
  ISLAND_ATTR,
  ISLAND_PREFIX_ATTR,
  ISLAND_PROPS_ATTR,
  ISLAND_SCRIPT_ONLY_ATTR,
} from '../../../islands/protocol';

const analytics = vi.hoisted(() => ({ emit: vi.fn() }));
vi.mock('../../../islands/analytics/emit', () => ({ emit: analytics.emit }));

/** An island that shows whether its script answers: each press counts. */
function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {label} {count}
    </button>
  );
}

const COPY = { message: 'This part could not load.', reload: 'Reload' };
const URLS = { Pay: '/assets/Pay.js', Form: '/assets/Form.js' };

/** A marker as the worker renders it (screens/layout/Island.tsx), its server HTML inside. */
function marker(name: string, options: { scriptOnly: boolean }): HTMLElement {
  const props = { label: name };
  const element = document.createElement('div');
  element.setAttribute(ISLAND_ATTR, name);
  element.setAttribute(ISLAND_PROPS_ATTR, JSON.stringify(props));
  element.setAttribute(ISLAND_PREFIX_ATTR, `${name}-`);
  if (options.scriptOnly) element.setAttribute(ISLAND_SCRIPT_ONLY_ATTR, '');
  element.innerHTML = renderToString(
    createElement(IslandRoot, null, createElement(Counter, props)),
    { identifierPrefix: `${name}-` },
  );
  document.body.appendChild(element);
  return element;
}

/**
 * React answers the island's button: a press counts. Pressed again until it does, as a visitor
 * would: a press before React has hydrated the island counts for nothing.
 */
async function expectAnswers(element: HTMLElement, name: string): Promise<void> {
  await vi.waitFor(() => {
    element.querySelector('button')?.click();
    expect(element.querySelector('button')?.textContent).toMatch(new RegExp(`^${name} [1-9]`));
  });
}

const refused = (_url?: string) =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
const counterModule = () => Promise.resolve({ default: Counter });

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  document.body.replaceChildren();
  analytics.emit.mockReset();
  vi.restoreAllMocks();
});

describe('hydrating the islands when a script does not load (SPEC.md §8)', () => {
  it('reports nothing when the browser stopped the scripts because the visitor moved on', async () => {
    const pay = marker('Pay', { scriptOnly: true });
    const html = pay.innerHTML;
    // As Chromium does when a navigation takes the page: its loads fail, then pagehide comes in
    // the same task.
    const importModule = vi.fn((url: string) => {
      const failed = refused(url);
      window.dispatchEvent(new Event('pagehide'));
      return failed;
    });

    await hydrateIslands({ Pay: URLS.Pay }, COPY, { importModule });
    expect(importModule).toHaveBeenCalledTimes(2);
    expect(consoleError).not.toHaveBeenCalled();
    expect(analytics.emit).not.toHaveBeenCalled();
    expect(pay.innerHTML).toBe(html);
    // Back from the back/forward cache, the page is here again: a failure then is reported.
    window.dispatchEvent(new Event('pageshow'));
    const again = marker('Form', { scriptOnly: false });
    await hydrateIslands({ Form: URLS.Form }, COPY, { importModule: (url) => refused(url) });
    expect(analytics.emit).toHaveBeenCalledWith('chunk_load_failed', {
      chunk: 'Form',
      type: 'missing',
    });
    expect(again.isConnected).toBe(true);
  });

  it('tries each script twice, then a script-only island gives way to an announced message with Reload; a form keeps its server HTML', async () => {
    const pay = marker('Pay', { scriptOnly: true });
    const form = marker('Form', { scriptOnly: false });
    const formHtml = form.innerHTML;
    pay.querySelector('button')?.focus();
    const importModule = vi.fn((url: string) => refused(url));

    await hydrateIslands(URLS, COPY, { importModule });

    expect(importModule.mock.calls.map(([url]) => url).sort()).toEqual([
      '/assets/Form.js',
      '/assets/Form.js?retry=1',
      '/assets/Pay.js',
      '/assets/Pay.js?retry=1',
    ]);
    const alert = pay.querySelector('[role="alert"]');
    expect(alert?.textContent).toBe(COPY.message);
    const reload = pay.querySelector('button');
    expect(reload?.textContent).toBe('Reload');
    expect(reload?.type).toBe('button');
    // The island had the focus: the Reload button takes it.
    expect(document.activeElement).toBe(reload);
    expect(form.innerHTML).toBe(formHtml);
    expect(analytics.emit.mock.calls).toEqual(
      expect.arrayContaining([
        ['chunk_load_failed', { chunk: 'Pay', type: 'missing' }],
        ['chunk_load_failed', { chunk: 'Form', type: 'missing' }],
      ]),
    );
    expect(analytics.emit).toHaveBeenCalledTimes(2);
    expect(consoleError).toHaveBeenCalledWith('Loading chunk Pay failed. (missing)', URLS.Pay);
  });

  it('Reload asks under a new URL and hydrates the server HTML in place', async () => {
    const pay = marker('Pay', { scriptOnly: true });
    const serverButton = pay.querySelector('button');
    const importModule = vi.fn((url: string) =>
      url.endsWith('?retry=2') ? counterModule() : refused(),
    );
    const reloadPage = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
    await hydrateIslands({ Pay: URLS.Pay }, COPY, { importModule });

    pay.querySelector('button')?.click();
    await vi.waitFor(() => expect(pay.querySelector('[role="alert"]')).toBeNull());
    expect(importModule).toHaveBeenLastCalledWith('/assets/Pay.js?retry=2');
    // The very element the server rendered, now answered by React.
    expect(pay.querySelector('button')).toBe(serverButton);
    await expectAnswers(pay, 'Pay');
    expect(reloadPage).not.toHaveBeenCalled();
    expect(analytics.emit).toHaveBeenCalledTimes(1);
  });

  it('Reload that fails again reports it and reloads the page, which asks for every file anew', async () => {
    const pay = marker('Pay', { scriptOnly: true });
    const importModule = vi.fn((url: string) => refused(url));
    const reloadPage = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
    await hydrateIslands({ Pay: URLS.Pay }, COPY, { importModule });

    const reload = pay.querySelector('button');
    reload?.click();
    // Busy while it works: a second press starts nothing more.
    expect(reload?.getAttribute('aria-busy')).toBe('true');
    reload?.click();
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(importModule.mock.calls.map(([url]) => url)).toEqual([
      '/assets/Pay.js',
      '/assets/Pay.js?retry=1',
      '/assets/Pay.js?retry=2',
      '/assets/Pay.js?retry=3',
    ]);
    expect(analytics.emit).toHaveBeenCalledTimes(2);
  });

  it("a stalled script holds up no other island, and is reported as a 'timeout'", async () => {
    const pay = marker('Pay', { scriptOnly: true });
    const form = marker('Form', { scriptOnly: false });
    const importModule = vi.fn((url: string) =>
      url.startsWith(URLS.Pay) ? new Promise<never>(() => {}) : counterModule(),
    );
    const hydrating = hydrateIslands(URLS, COPY, { importModule, timeoutMs: 50 });

    await expectAnswers(form, 'Form');
    expect(pay.querySelector('[role="alert"]')).toBeNull();
    await hydrating;
    expect(pay.querySelector('[role="alert"]')?.textContent).toBe(COPY.message);
    expect(importModule).toHaveBeenCalledWith('/assets/Pay.js?retry=1');
    expect(analytics.emit.mock.calls).toEqual([
      ['chunk_load_failed', { chunk: 'Pay', type: 'timeout' }],
    ]);
  });
});
