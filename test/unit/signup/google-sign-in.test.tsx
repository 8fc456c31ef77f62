// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const script = vi.hoisted(() => ({ loadExternalScript: vi.fn<(src: string) => Promise<void>>() }));
vi.mock('../../../islands/kit/external-script', () => script);
const signUp = vi.hoisted(() => ({ signUpWithGoogle: vi.fn(async () => true) }));
vi.mock('../../../islands/signup/sign-up', () => signUp);

import GoogleSignIn, { type GoogleSignInProps } from '../../../islands/GoogleSignIn';
import type { GoogleAccountsId } from '../../../islands/signup/google-identity';
import { $error } from '../../../islands/stores/error';
import { serverThenHydrate } from '../kit/hydrate';

const ERRORS: GoogleSignInProps['errors'] = {
  google_no_credential:
    'Failed to create an account using Google, please try again or use the default email method.',
  google_unexpected: 'An unexpected error occurred during Google authentication. Please try again.',
  google_not_configured: 'Google Sign-In is not properly configured. Please try again later.',
  google_init_failed: 'Failed to initialize Google Sign-In. Please try again later.',
  google_not_available: 'Google Sign-In is not available. Please try again later.',
  google_sign_in_failed: 'An error occurred while trying to sign in with Google. Please try again.',
  google_not_ready: 'Google Sign-In is not ready yet. Please wait a moment and try again.',
  email_exists: 'The email has already been taken',
  signup_failed: 'Failed to create an account',
  rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
};

const props = (clientId = 'client-1.apps.googleusercontent.com'): GoogleSignInProps => ({
  clientId,
  language: 'en',
  next: '/checkout_v3_tr?gclid=1',
  userUuid: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
  landingType: 'split_default',
  text: { button: 'Continue with Google', creating: 'Creating your account…' },
  errors: ERRORS,
});

const gis = {
  initialize: vi.fn<GoogleAccountsId['initialize']>(),
  renderButton: vi.fn<GoogleAccountsId['renderButton']>((parent) => {
    parent.innerHTML = '<div data-gis-button>Continue as Anna</div>';
  }),
};

const placeholder = () => screen.queryByRole('button', { name: 'Continue with Google' });
const message = () => document.querySelector('.google-signin__message')?.textContent ?? '';
const tick = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

/** GIS loads and runs: the API is on window and the script's load resolves. */
function gisLoads() {
  script.loadExternalScript.mockImplementation(async () => {
    (window as unknown as { google: unknown }).google = { accounts: { id: gis } };
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.clearAllMocks();
  delete (window as unknown as { google?: unknown }).google;
  $error.set({ show: false, message: '' });
});

describe('GoogleSignIn island (SPEC.md §4, §8, §9)', () => {
  it('renders our own labelled button on the server, which hydrates without a mismatch', async () => {
    script.loadExternalScript.mockReturnValue(new Promise(() => {}));
    const html = renderToString(<GoogleSignIn {...props()} />);
    expect(html).toMatch(/<button type="button" class="google-signin__placeholder"/);
    expect(html).toContain('Continue with Google');
    const { problems, root, container } = await serverThenHydrate(<GoogleSignIn {...props()} />);
    expect(problems).toEqual([]);
    act(() => root.unmount());
    container.remove();
  });

  it('without a client id says so in the button’s place in the first HTML, and loads no script', async () => {
    const html = renderToString(<GoogleSignIn {...props('')} />);
    expect(html).toContain(
      `class="google-signin__message google-signin__message--aside" role="status">${ERRORS.google_not_configured}</p>`,
    );
    expect(html).not.toContain('<button');
    render(<GoogleSignIn {...props('')} />);
    await tick(2000);
    expect(script.loadExternalScript).not.toHaveBeenCalled();
    expect(message()).toBe(ERRORS.google_not_configured);
    expect(placeholder()).toBeNull();
  });

  it('pressed before Google is ready, it says "not ready yet"', async () => {
    script.loadExternalScript.mockReturnValue(new Promise(() => {}));
    render(<GoogleSignIn {...props()} />);
    await tick(300);
    await act(async () => placeholder()!.click());
    expect($error.get()).toEqual({ show: true, message: ERRORS.google_not_ready });
    expect(message()).toBe(ERRORS.google_not_ready);
    expect(placeholder()!.getAttribute('aria-describedby')).toBe(
      document.querySelector('.google-signin__message')!.id,
    );
  });

  it('when GIS cannot load, the reason takes the button’s place in the same live region', async () => {
    let refuse: (error: Error) => void = () => {};
    script.loadExternalScript.mockReturnValue(new Promise((_, reject) => (refuse = reject)));
    render(<GoogleSignIn {...props()} />);
    await tick(0);
    const region = document.querySelector('.google-signin__message');
    expect(region?.getAttribute('role')).toBe('status');
    expect(region?.className).toBe('google-signin__message');
    expect(placeholder()).not.toBeNull();
    await act(async () => refuse(new Error('blocked')));
    await tick(0);
    // The element that was waiting, empty, is the one that now speaks: a screen reader hears it.
    expect(document.querySelector('.google-signin__message')).toBe(region);
    expect(region?.className).toBe('google-signin__message google-signin__message--aside');
    expect(message()).toBe(ERRORS.google_not_available);
    // No button is left that could only say it does not work.
    expect(placeholder()).toBeNull();
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect($error.get().show).toBe(false);
  });

  it("swaps our button for Google's 343 px one 1 s after the script is ready", async () => {
    gisLoads();
    render(<GoogleSignIn {...props()} />);
    await tick(100);
    expect(gis.initialize).toHaveBeenCalledOnce();
    expect(placeholder()).not.toBeNull();
    await tick(1000);
    expect(placeholder()).toBeNull();
    const [parent, options] = gis.renderButton.mock.calls[0]!;
    expect(parent.className).toBe('google-signin__gis');
    expect(options.width).toBe(343);
    expect(document.querySelector('[data-gis-button]')?.textContent).toBe('Continue as Anna');
    expect(message()).toBe('');
  });

  it('a credential signs the visitor up through the worker; none says §5’s text', async () => {
    gisLoads();
    render(<GoogleSignIn {...props()} />);
    await tick(1100);
    const { callback } = gis.initialize.mock.calls[0]![0];
    await act(async () => callback({ credential: 'eyJ.id.token' }));
    await tick(0);
    expect(signUp.signUpWithGoogle).toHaveBeenCalledWith(
      'eyJ.id.token',
      expect.objectContaining({
        userUuid: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
        landingType: 'split_default',
        next: '/checkout_v3_tr?gclid=1',
      }),
    );
    await act(async () => callback({}));
    expect($error.get().message).toBe(ERRORS.google_no_credential);
  });

  it('a sign-in that throws unexpectedly says so (SPEC.md §8)', async () => {
    gisLoads();
    signUp.signUpWithGoogle.mockRejectedValueOnce(new TypeError('undefined is not a function'));
    render(<GoogleSignIn {...props()} />);
    await tick(1100);
    const { callback } = gis.initialize.mock.calls[0]![0];
    await act(async () => callback({ credential: 'eyJ.id.token' }));
    await tick(0);
    expect($error.get().message).toBe(ERRORS.google_unexpected);
  });

  it('initialize throwing says it failed to initialise, in the button’s place', async () => {
    gisLoads();
    gis.initialize.mockImplementationOnce(() => {
      throw new Error('bad client');
    });
    render(<GoogleSignIn {...props()} />);
    await tick(1500);
    expect(message()).toBe(ERRORS.google_init_failed);
    expect(document.querySelector('.google-signin__message--aside')).not.toBeNull();
    expect(placeholder()).toBeNull();
  });
});
