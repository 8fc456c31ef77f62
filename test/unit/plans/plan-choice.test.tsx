// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import PlanChoice, { type PlanChoiceProps } from '../../../islands/PlanChoice';
import { $offerEnded } from '../../../islands/stores/offer';
import { $plans } from '../../../islands/stores/plans';
import { planChoiceProps } from '../../../screens/plans/plan-choice-props';
import type { ScreenProps } from '../../../screens/types';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import type { PlanFamilyId } from '../../../shared/plans/catalogue';
import { serverThenHydrate } from '../kit/hydrate';
import { englishT } from './render-screen';

function props(
  overrides: Partial<ScreenProps> = {},
  families: readonly PlanFamilyId[] = ['monthly_7d_intro', 'monthly', 'quarterly'],
): PlanChoiceProps {
  return planChoiceProps(
    {
      screen: 'checkout_v3_tr',
      t: englishT(),
      continueAction: '/checkout_v3_tr',
      next: null,
      country: 'US',
      language: 'en',
      theme: 'geozilla',
      brand: DEFAULT_BRANDS.geozilla,
      flow: 'default',
      visitorId: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
      landingType: 'split_default',
      googleClientId: '',
      ...overrides,
    },
    { families, defaultFamily: families[0]!, coupon: null },
    { summary: true },
  );
}

const checked = () =>
  screen
    .getAllByRole('radio')
    .filter((radio) => radio.getAttribute('aria-checked') === 'true')
    .map((radio) => radio.dataset.planId);
const disclosure = () => document.querySelector('.plan-choice__disclosure')?.textContent;
const summaryRows = () =>
  [...document.querySelectorAll('.order-summary__row')].map((row) =>
    [...row.children].map((cell) => cell.textContent).join(' '),
  );

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  localStorage.clear();
  $plans.setKey('plan', '');
  $plans.setKey('upsellPlan', '');
  $plans.setKey('planDetails', null);
  $offerEnded.set(false);
});
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('PlanChoice island', () => {
  it('selects the default plan and keeps it as the chosen plan', async () => {
    await act(async () => {
      render(<PlanChoice {...props()} />);
    });
    expect(checked()).toEqual(['monthly_7d_intro_usd']);
    expect($plans.get().plan).toBe('monthly_7d_intro_usd');
  });

  it('stores the clicked plan in $plans.plan with what the payment step needs', async () => {
    render(<PlanChoice {...props()} />);
    await userEvent.click(screen.getByText('3-month plan'));
    expect(checked()).toEqual(['quarterly_usd']);
    expect($plans.get().plan).toBe('quarterly_usd');
    expect($plans.get().planDetails).toEqual({
      id: 'quarterly_usd',
      currency: 'USD',
      price: '59.99',
      periodPrice: '59.99',
      trialDays: 0,
      coupon: null,
    });
    expect(localStorage.getItem('gf:plans:plan')).toBe('"quarterly_usd"');
  });

  it('stores the plan chosen with the keyboard', async () => {
    render(<PlanChoice {...props()} />);
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{ArrowDown}');
    expect($plans.get().plan).toBe('monthly_usd');
  });

  it('shows the disclosure and the order summary of the selected plan', async () => {
    render(<PlanChoice {...props()} />);
    expect(disclosure()).toBe(
      '$6.99 for the first 7 days, then $39.99 every month. Cancel anytime.',
    );
    // A trial is struck from nothing: 7 days at the monthly rate is a price nobody pays.
    expect(summaryRows()).toEqual(['Premium, 7-day trial $6.99', 'Total today $6.99']);
    await userEvent.click(screen.getByText('1-month plan'));
    expect(disclosure()).toBe('$39.99 every month. Cancel anytime.');
    // Nothing is taken off the plain monthly plan, so there is no discount row.
    expect(summaryRows()).toEqual(['Premium, 1 month $39.99', 'Total today $39.99']);
    await userEvent.click(screen.getByText('3-month plan'));
    expect(disclosure()).toBe('$59.99 every 3 months. Cancel anytime.');
    expect(summaryRows()).toEqual([
      'Premium, 3 months $119.97',
      'Discount −$59.98',
      'Total today $59.99',
    ]);
  });

  it.each([
    // 6.99 / 7, 4.99 / 5 and 2.99 / 3 each round to a dollar a day.
    [
      ['monthly_7d_intro', 'monthly_5d_intro', 'monthly_3d_intro'],
      ['1.00', '1.00', '1.00'],
    ],
    // 39.99 / 30 = 1.333; 59.99 / 90 = 0.6666.
    [
      ['monthly', 'quarterly'],
      ['1.33', '0.67'],
    ],
    // The private-chat upsell: 9.99 for a month, or for 3 months.
    [
      ['upsell_monthly_999', 'upsell_quarterly_999'],
      ['0.33', '0.11'],
    ],
  ] as const)('shows %j at their price per day (SPEC.md §3)', (families, perDay) => {
    render(<PlanChoice {...props({}, families)} />);
    const radios = screen.getAllByRole('radio');
    expect(radios.map((radio) => radio.querySelector('.plan-picker__amount')?.textContent)).toEqual(
      perDay.map((price) => `$${price.replace('.', '')}per day`),
    );
    expect(
      radios.map(
        (radio) => radio.querySelector('.plan-picker__price .visually-hidden')?.textContent,
      ),
    ).toEqual(perDay.map((price) => `$${price} per day`));
  });

  it('labels no trial with a saving: the three intro plans each cost about $1.00 a day', () => {
    render(
      <PlanChoice {...props({}, ['monthly_7d_intro', 'monthly_5d_intro', 'monthly_3d_intro'])} />,
    );
    const labels = [...document.querySelectorAll('.plan-picker__label')].map(
      (label) => label.textContent,
    );
    expect(labels).toEqual(['Most popular']);
    expect(document.querySelectorAll('s, .plan-picker__old')).toHaveLength(0);
  });

  it('strikes the 3-month plan from three months of the monthly plan, and saves 49%', () => {
    render(<PlanChoice {...props()} />);
    const quarterly = screen.getByRole('radio', { name: /3-month plan/ });
    expect(quarterly.textContent).toContain('Save 49%');
    expect(quarterly.textContent).toContain('$119.97');
  });

  it('strikes nothing and claims no saving with anchors off', async () => {
    render(<PlanChoice {...props({ anchors: false })} />);
    const quarterly = screen.getByRole('radio', { name: /3-month plan/ });
    expect(quarterly.textContent).not.toContain('Save');
    expect(quarterly.textContent).not.toContain('$119.97');
    await userEvent.click(screen.getByText('3-month plan'));
    expect(summaryRows()).toEqual(['Premium, 3 months $59.99', 'Total today $59.99']);
  });

  it('shows and keeps the regular prices once the countdown reaches zero', () => {
    render(<PlanChoice {...props({ offerClock: { state: 'running', secondsLeft: 12 } })} />);
    expect($plans.get().plan).toBe('monthly_7d_intro_usd');
    act(() => $offerEnded.set(true));
    expect(screen.getAllByRole('radio').map((radio) => radio.dataset.planId)).toEqual([
      'monthly_usd',
      'quarterly_usd',
    ]);
    expect($plans.get().plan).toBe('monthly_usd');
    expect($plans.get().planDetails).toMatchObject({ periodPrice: '39.99', trialDays: 0 });
    expect(summaryRows()).toEqual(['Premium, 1 month $39.99', 'Total today $39.99']);
  });

  it('shows euro prices to a visitor in the euro area', () => {
    render(<PlanChoice {...props({ country: 'DE', language: 'de' })} />);
    expect(disclosure()?.replace(/\u00a0/g, ' ')).toBe(
      '6,99 € for the first 7 days, then 39,99 € every month. Cancel anytime.',
    );
    expect(document.querySelector('.plan-picker__sign')?.textContent).toBe('€');
    expect($plans.get().plan).toBe('monthly_7d_intro_eur');
  });

  it('shows pound prices with the VAT note to a visitor in the UK', () => {
    render(<PlanChoice {...props({ country: 'GB', language: 'en' })} />);
    expect(checked()).toEqual(['monthly_7d_intro_gbp']);
    expect(document.querySelector('.plan-picker__sign')?.textContent).toBe('£');
    expect(summaryRows().at(-1)).toBe('Total today £5.99');
    expect(disclosure()).toContain('£34.99 every month');
    expect(document.querySelector('.plan-choice__tax')?.textContent).toBe('Price includes VAT');
    expect(document.querySelector('main, body')?.textContent).not.toContain('$');
  });

  it('restores a plan chosen before a reload, after hydrating like the server rendered', async () => {
    const { container, problems, root } = await serverThenHydrate(<PlanChoice {...props()} />, {
      beforeHydrate: () => $plans.setKey('plan', 'quarterly_usd'),
    });
    expect(problems).toEqual([]);
    const selected = container.querySelector('[aria-checked="true"]') as HTMLElement;
    expect(selected.dataset.planId).toBe('quarterly_usd');
    act(() => root.unmount());
  });

  it('ignores a stored plan that this screen does not offer', async () => {
    $plans.setKey('plan', 'guide_899_usd');
    await act(async () => {
      render(<PlanChoice {...props()} />);
    });
    expect(checked()).toEqual(['monthly_7d_intro_usd']);
    expect($plans.get().plan).toBe('monthly_7d_intro_usd');
  });

  it('keeps an upsell choice apart from the main plan', async () => {
    $plans.setKey('plan', 'monthly_usd');
    render(<PlanChoice {...props()} slot="upsellPlan" />);
    await userEvent.click(screen.getByText('3-month plan'));
    expect($plans.get().upsellPlan).toBe('quarterly_usd');
    expect($plans.get().plan).toBe('monthly_usd');
  });
});
