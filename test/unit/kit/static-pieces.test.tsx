// @vitest-environment happy-dom
import { existsSync } from 'node:fs';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Divider } from '../../../screens/kit/Divider';
import { LinearProgress } from '../../../screens/kit/LinearProgress';
import {
  type PaymentProvider,
  PROVIDER_LOGOS,
  ProviderLogo,
} from '../../../screens/kit/ProviderLogo';
import { StepList } from '../../../screens/kit/StepList';
import { StoreBadges } from '../../../screens/kit/StoreBadges';
import { SupportLinks } from '../../../screens/kit/SupportLinks';
import { TrustLabels } from '../../../screens/kit/TrustLabels';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { applyPageCss } from './page-css';
import { englishT } from './translate';

const t = englishT();
afterEach(cleanup);

describe('TrustLabels (SPEC.md §2)', () => {
  it('lists confidential, secure SSL and consent, in the page language', () => {
    render(<TrustLabels t={t} />);
    const list = screen.getByRole('list', { name: 'Your data is safe' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '100% confidential',
      'Secure SSL encryption',
      "Located only with the owner's consent",
    ]);
  });
});

describe('StepList (SPEC.md §2)', () => {
  it('is an ordered list of the steps, in order', () => {
    const steps = ['Enter the number', 'The owner agrees by SMS', 'See the location'];
    render(<StepList steps={steps} label="How it works" />);
    const list = screen.getByRole('list', { name: 'How it works' });
    expect(list.tagName).toBe('OL');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(steps);
  });
});

describe('StoreBadges (SPEC.md §2)', () => {
  it('links to both stores under names a screen reader can say', () => {
    render(
      <StoreBadges
        t={t}
        appStoreHref="https://apps.apple.com/app/id1"
        googlePlayHref="https://play.google.com/store/apps/details?id=x"
      />,
    );
    expect(
      screen.getByRole('link', { name: 'Download on the App Store' }).getAttribute('href'),
    ).toBe('https://apps.apple.com/app/id1');
    expect(screen.getByRole('link', { name: 'Get it on Google Play' }).getAttribute('href')).toBe(
      'https://play.google.com/store/apps/details?id=x',
    );
  });
});

describe('ProviderLogo (SPEC.md §2)', () => {
  it.each([
    ['stripe', 'Payments secured by Stripe'],
    ['braintree', 'Payments secured by Braintree'],
    ['paypal', 'Pay with PayPal'],
    ['cards', 'Visa and Mastercard accepted'],
  ] as [PaymentProvider, string][])('shows the %s logo named %j', (provider, name) => {
    render(<ProviderLogo t={t} provider={provider} />);
    const logo = screen.getByRole<HTMLImageElement>('img', { name });
    expect(logo.getAttribute('src')).toBe(PROVIDER_LOGOS[provider].src);
    expect(logo.getAttribute('height')).toBe('28');
  });

  it('points at files that exist in public/', () => {
    for (const { src } of Object.values(PROVIDER_LOGOS)) {
      expect(existsSync(`public${src}`)).toBe(true);
    }
  });
});

describe('SupportLinks (SPEC.md §2)', () => {
  it('offers support by email and the legal pages, which open in a new tab', () => {
    render(<SupportLinks t={t} brand={DEFAULT_BRANDS.geozilla} theme="geozilla" />);
    expect(screen.getByRole('navigation', { name: 'Support and legal' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
      'mailto:support@geozilla.com',
    );
    const terms = screen.getByRole('link', { name: 'Terms of use (opens in a new tab)' });
    expect(terms.getAttribute('href')).toBe('https://geozilla.com/terms-of-use/');
    expect(terms.getAttribute('target')).toBe('_blank');
    expect(terms.getAttribute('rel')).toContain('noopener');
    expect(
      screen
        .getByRole('link', { name: 'Privacy policy (opens in a new tab)' })
        .getAttribute('href'),
    ).toBe('https://geozilla.com/privacy-policy/');
  });

  it("takes the page's brand's addresses", () => {
    render(<SupportLinks t={t} brand={DEFAULT_BRANDS.findo} theme="findo" />);
    expect(screen.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe(
      'mailto:support@findo.app',
    );
    expect(screen.getByRole('link', { name: /Terms of use/ }).getAttribute('href')).toBe(
      'https://findo.app/terms-of-use/',
    );
    expect(screen.getByRole('link', { name: /Privacy policy/ }).getAttribute('href')).toBe(
      'https://findo.app/privacy-policy/',
    );
  });
});

describe('Divider (SPEC.md §2)', () => {
  it("reads 'or'", () => {
    const { container } = render(<Divider t={t} />);
    expect(container.textContent).toBe('or');
  });
});

describe('LinearProgress (SPEC.md §2 linear progress bar, segmented with a 5px gap)', () => {
  it("is a named progressbar saying the visitor's step, one segment per step", () => {
    render(<LinearProgress t={t} step={2} steps={5} />);
    const bar = screen.getByRole('progressbar', { name: 'Your progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('2');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('5');
    expect(bar.getAttribute('aria-valuetext')).toBe('Step 2 of 5');
    const segments = [...bar.children].map((segment) => segment.className);
    expect(segments).toEqual([
      'linear-progress__segment linear-progress__segment--done',
      'linear-progress__segment linear-progress__segment--done',
      'linear-progress__segment',
      'linear-progress__segment',
      'linear-progress__segment',
    ]);
  });

  it('sets its segments side by side 5px apart, the steps done in the brand colour', () => {
    const removeCss = applyPageCss();
    const { container } = render(<LinearProgress t={t} step={1} steps={3} />);
    const bar = getComputedStyle(container.querySelector('.linear-progress')!);
    expect(bar.display).toBe('flex');
    expect(bar.getPropertyValue('gap')).toBe('5px');
    const [done, toDo] = [...container.querySelectorAll('.linear-progress__segment')].map(
      (segment) => getComputedStyle(segment).backgroundColor,
    );
    expect(done).toBe('#2563eb');
    expect(toDo).not.toBe(done);
    removeCss();
  });
});
