// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OpenInBrowser, { androidIntent } from '../../../islands/OpenInBrowser';
import { $map } from '../../../islands/stores/map';
import { $plans } from '../../../islands/stores/plans';
import { $signup } from '../../../islands/stores/signup';
import type { InAppBrowser } from '../../../shared/in-app-browser';

const analytics = vi.hoisted(() => ({ emit: vi.fn() }));
vi.mock('../../../islands/analytics/emit', () => ({ emit: analytics.emit }));

const TEXT = {
  button: 'Open in browser',
  busy: 'Please wait…',
  copied: 'Link copied. Open Safari and paste it.',
  copyByHand: 'Copy this link:',
  failed: 'The link could not be made.',
};
/** happy-dom's page is on localhost: the worker answers with a link of the same origin. */
const LINK = `${window.location.origin}/resume/abc.def`;

let posted: unknown[] = [];
let answer: () => Response;

beforeEach(() => {
  posted = [];
  answer = () => Response.json({ url: LINK, expiresAt: '2026-11-23T07:00:00Z' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      posted.push(JSON.parse(String(init.body)));
      return answer();
    }),
  );
  $signup.setKey('email', 'ada@example.com');
  $signup.setKey('emailValidity', true);
  $signup.setKey('isSuccess', false);
  $signup.setKey('deeplinkToken', '');
  $plans.setKey('plan', 'monthly_7d_intro_usd');
  $map.setKey('phone', '+14155552671');
  window.history.replaceState(null, '', '/signup?utm_source=ig');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  analytics.emit.mockReset();
});

function clipboardWith(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

function show(inApp: InAppBrowser) {
  render(<OpenInBrowser screen="signup" inApp={inApp} text={TEXT} />);
  return screen.getByRole('button', { name: TEXT.button });
}

describe('the way out of an in-app browser', () => {
  it('is offered once, and taken: asks for a link with this screen, query and what was typed', async () => {
    const writeText = vi.fn(async () => {});
    clipboardWith(writeText);
    const button = show({ app: 'instagram', os: 'ios' });
    expect(analytics.emit).toHaveBeenCalledWith('in_app_escape_offered', {
      app: 'instagram',
      os: 'ios',
    });
    await userEvent.click(button);
    expect(posted).toEqual([
      {
        screen: 'signup',
        search: '?utm_source=ig',
        entered: {
          email: 'ada@example.com',
          planId: 'monthly_7d_intro_usd',
          phone: '+14155552671',
        },
      },
    ]);
    expect(analytics.emit).toHaveBeenCalledWith('in_app_escape_taken', {
      app: 'instagram',
      os: 'ios',
    });
    // iOS: on the clipboard, and the visitor told where to paste it.
    expect(writeText).toHaveBeenCalledWith(LINK);
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe(TEXT.copied));
  });

  it('shows the link to copy by hand when the clipboard refuses', async () => {
    clipboardWith(vi.fn(async () => Promise.reject(new Error('denied'))));
    await userEvent.click(show({ app: 'tiktok', os: 'ios' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(`${TEXT.copyByHand} ${LINK}`),
    );
    expect(screen.getByRole('link', { name: LINK }).getAttribute('href')).toBe(LINK);
  });

  it('after sign-up, sends the one-time login token, so the link signs the real browser in', async () => {
    clipboardWith(vi.fn(async () => {}));
    // Before sign-up a token left in the store goes nowhere.
    $signup.setKey('deeplinkToken', 'one-time-login');
    await userEvent.click(show({ app: 'instagram', os: 'ios' }));
    cleanup();
    $signup.setKey('isSuccess', true);
    await userEvent.click(show({ app: 'instagram', os: 'ios' }));
    expect(posted).toEqual([
      expect.not.objectContaining({ loginToken: expect.anything() }),
      expect.objectContaining({ screen: 'signup', loginToken: 'one-time-login' }),
    ]);
  });

  it('leaves a typed address that is not yet valid behind', async () => {
    $signup.setKey('email', 'ada@exa');
    $signup.setKey('emailValidity', false);
    clipboardWith(vi.fn(async () => {}));
    await userEvent.click(show({ app: 'facebook', os: 'ios' }));
    expect(posted).toEqual([
      expect.objectContaining({
        entered: { planId: 'monthly_7d_intro_usd', phone: '+14155552671' },
      }),
    ]);
  });

  it('refuses a link to another site, whatever the answer says', async () => {
    answer = () => Response.json({ url: 'https://evil.example/resume/abc.def' });
    const writeText = vi.fn(async () => {});
    clipboardWith(writeText);
    await userEvent.click(show({ app: 'instagram', os: 'ios' }));
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe(TEXT.failed));
    expect(writeText).not.toHaveBeenCalled();
  });

  it('says so, and can be pressed again, when the worker makes no link', async () => {
    answer = () =>
      Response.json({ errors: { messages: ['no'] }, code: 'rate_limited' }, { status: 429 });
    const button = show({ app: 'snapchat', os: 'android' });
    await userEvent.click(button);
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe(TEXT.failed));
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect(button.textContent).toBe(TEXT.button);
  });

  it('on Android hands the link to the default browser through an intent', async () => {
    const button = show({ app: 'facebook', os: 'android' });
    const location = { href: '', search: '?utm_source=ig', origin: window.location.origin };
    vi.spyOn(window, 'location', 'get').mockReturnValue(location as unknown as Location);
    await act(async () => {
      await userEvent.click(button);
    });
    expect(location.href).toBe(androidIntent(LINK));
    expect(androidIntent('https://funnel.test/resume/abc.def')).toBe(
      `intent://funnel.test/resume/abc.def#Intent;scheme=https;S.browser_fallback_url=${encodeURIComponent('https://funnel.test/resume/abc.def')};end`,
    );
  });
});
