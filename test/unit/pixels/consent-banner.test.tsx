// @vitest-environment happy-dom
import { cleanStores } from 'nanostores';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ConsentBanner from '../../../islands/ConsentBanner';
import {
  $consentAnswer,
  CONSENT_COOKIE,
  consentCookieLine,
  readConsentCookie,
} from '../../../islands/pixels/consent';
import {
  CONSENT_COOKIE_MAX_AGE,
  CONSENT_COOKIE as WORKER_CONSENT_COOKIE,
} from '../../../worker/attribution/consent';
import { serverThenHydrate } from '../kit/hydrate';

const PROPS = {
  label: 'Cookie choice',
  text: 'With your permission, our advertising partners use cookies.',
  accept: 'Accept',
  decline: 'Decline',
  action: '/consent',
};

const roots: Root[] = [];

/** The island as the page has it: server HTML, then hydrated (unmounted after each test). */
async function hydrated() {
  const result = await serverThenHydrate(<ConsentBanner {...PROPS} />);
  roots.push(result.root);
  return result;
}

/** As the page does: Safari before 18.4 has no Cookie Store API. */
function writeCookie(line: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the test sets what a previous page would have
  document.cookie = line;
}

function clearCookies() {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) writeCookie(`${name}=; Max-Age=0; Path=/`);
  }
}

beforeEach(() => {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    'https://funnel.test/checkout_v3_tr',
  );
  // An earlier test's banner may have left the store mounted for its last second.
  cleanStores($consentAnswer);
  $consentAnswer.set(null);
  clearCookies();
});
afterEach(() => {
  for (const root of roots.splice(0)) act(() => root.unmount());
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('the consent cookie', () => {
  it('is the one the worker reads, kept 365 days for the whole site', () => {
    expect(CONSENT_COOKIE).toBe(WORKER_CONSENT_COOKIE);
    expect(consentCookieLine('granted')).toBe(
      `gf_consent=granted; Max-Age=${CONSENT_COOKIE_MAX_AGE}; Path=/; SameSite=Lax; Secure`,
    );
  });

  it('reads only a real answer', () => {
    expect(readConsentCookie('a=1; gf_consent=denied; b=2')).toBe('denied');
    expect(readConsentCookie('gf_consent=maybe')).toBeNull();
    expect(readConsentCookie('xgf_consent=granted')).toBeNull();
    expect(readConsentCookie('')).toBeNull();
  });
});

describe('the consent answer store', () => {
  it('reads the cookie only once listened to, not as the page renders', () => {
    writeCookie('gf_consent=granted; Path=/');
    expect($consentAnswer.value).toBeNull();
    const unlisten = $consentAnswer.listen(() => {});
    expect($consentAnswer.value).toBe('granted');
    unlisten();
  });

  it('keeps the answer given on this page over the cookie', () => {
    writeCookie('gf_consent=granted; Path=/');
    $consentAnswer.set('denied');
    const unlisten = $consentAnswer.listen(() => {});
    expect($consentAnswer.value).toBe('denied');
    unlisten();
  });
});

describe('ConsentBanner', () => {
  it('is a named region with one sentence and two buttons that post a real form', () => {
    document.body.innerHTML = renderToStaticMarkup(<ConsentBanner {...PROPS} />);
    const region = document.querySelector('section')!;
    expect(region.getAttribute('aria-label')).toBe('Cookie choice');
    expect(region.querySelector('p')?.textContent).toBe(PROPS.text);
    const form = region.querySelector('form')!;
    expect([form.getAttribute('method'), form.getAttribute('action')]).toEqual([
      'post',
      '/consent',
    ]);
    const buttons = [...form.querySelectorAll('button')].map((button) => [
      button.type,
      button.name,
      button.value,
      button.textContent,
    ]);
    expect(buttons).toEqual([
      ['submit', 'answer', 'granted', 'Accept'],
      ['submit', 'answer', 'denied', 'Decline'],
    ]);
  });

  it.each([
    ['Accept', 'granted'],
    ['Decline', 'denied'],
  ] as const)(
    '%s stores the answer in the cookie and the store, and the banner goes',
    async (label, answer) => {
      const { container, problems } = await hydrated();
      expect(problems).toEqual([]);
      const posted = vi.fn();
      document.addEventListener('submit', (event) => {
        if (!event.defaultPrevented) posted();
      });
      const button = [...container.querySelectorAll('button')].find(
        (b) => b.textContent === label,
      )!;
      await act(async () => button.click());
      expect(readConsentCookie(document.cookie)).toBe(answer);
      expect($consentAnswer.get()).toBe(answer);
      expect(container.querySelector('section')).toBeNull();
      expect(posted).not.toHaveBeenCalled();
    },
  );

  it('hides once hydrated when the cookie already holds an answer (a page fetched ahead)', async () => {
    writeCookie('gf_consent=denied; Path=/');
    const { container, problems } = await hydrated();
    expect(problems).toEqual([]);
    expect(container.querySelector('section')).toBeNull();
    expect($consentAnswer.get()).toBe('denied');
  });
});
