// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DownloadApp, { storeFor } from '../../../islands/DownloadApp';
import { serverThenHydrate } from '../kit/hydrate';

const PROPS = {
  action: '/success?gclid=1',
  label: 'Download the app',
  appStoreHref: 'https://apps.example/ios',
  googlePlayHref: 'https://play.example/android',
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('storeFor', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)', 'appStore'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 'appStore'],
    // iPadOS asks for desktop pages by default and names itself a Mac.
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 'appStore'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8)', 'googlePlay'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'googlePlay'],
  ] as const)('sends %s to %s', (userAgent, store) => {
    expect(storeFor(userAgent)).toBe(store);
  });
});

describe('DownloadApp (the success screen Continue)', () => {
  it('is the Continue button in a form that still posts without JavaScript', async () => {
    const { container, problems, root } = await serverThenHydrate(<DownloadApp {...PROPS} />);
    const button = container.querySelector('#continue-button') as HTMLButtonElement;
    expect(button.textContent).toBe('Download the app');
    expect(button.type).toBe('submit');
    expect(button.form?.getAttribute('action')).toBe('/success?gclid=1');
    expect(button.form?.getAttribute('method')).toBe('post');
    // The last screen of the flow names no next screen (the page script would move there).
    expect(button.form?.hasAttribute('data-next')).toBe(false);
    expect(problems).toEqual([]);
    act(() => root.unmount());
  });

  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)', 'https://apps.example/ios'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8)', 'https://play.example/android'],
  ])('opens the store of the phone when pressed: %s', async (userAgent, store) => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    render(<DownloadApp {...PROPS} />);
    const submitted = vi.fn();
    // The page script listens on the document: a press the island handles never reaches it.
    document.addEventListener('submit', (event) => submitted(event.defaultPrevented));
    await userEvent.click(screen.getByRole('button', { name: 'Download the app' }));
    expect(assign).toHaveBeenCalledWith(store);
    expect(submitted).toHaveBeenCalledWith(true);
  });
});
