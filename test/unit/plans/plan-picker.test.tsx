// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  movedIndex,
  PlanPicker,
  type PlanPickerItem,
  radioKeyMove,
} from '../../../islands/kit/PlanPicker';
import { moneyParts } from '../../../shared/plans/money';

afterEach(cleanup);

const ITEMS: PlanPickerItem[] = [
  {
    id: 'monthly_7d_intro_usd',
    duration: '7-day trial',
    price: moneyParts(100, 'USD', 'en'),
    period: 'per day',
    oldPrice: '$1.33',
    fullPrice: '$6.99',
    oldFullPrice: '$9.33',
    label: 'Most popular',
  },
  {
    id: 'monthly_usd',
    duration: '1-month plan',
    price: moneyParts(133, 'USD', 'en'),
    period: 'per day',
  },
  {
    id: 'quarterly_usd',
    duration: '3-month plan',
    price: moneyParts(67, 'USD', 'en'),
    period: 'per day',
  },
];

/** A picker whose active id follows what it reports, as an island wires it. */
function Controlled({ onSelect = () => {} }: { onSelect?: (item: PlanPickerItem) => void }) {
  const [active, setActive] = useState<string | null>('monthly_usd');
  return (
    <PlanPicker
      label="Choose your plan"
      items={ITEMS}
      activeId={active}
      onSelect={(item) => {
        setActive(item.id);
        onSelect(item);
      }}
    />
  );
}

const radios = () => screen.getAllByRole('radio');
const checkedIds = () =>
  radios()
    .filter((radio) => radio.getAttribute('aria-checked') === 'true')
    .map((radio) => radio.dataset.planId);

describe('moneyParts (the big price in the pieces Intl formats it in)', () => {
  it.each([
    [
      699,
      'USD',
      'en',
      { text: expect.any(String), lead: '$', whole: '6', fraction: '99', trail: '' },
    ],
    [
      700,
      'USD',
      'en',
      { text: expect.any(String), lead: '$', whole: '7', fraction: '00', trail: '' },
    ],
    [
      3999,
      'EUR',
      'de',
      { text: expect.any(String), lead: '', whole: '39', fraction: '99', trail: '€' },
    ],
    [
      599,
      'GBP',
      'en',
      { text: expect.any(String), lead: '£', whole: '5', fraction: '99', trail: '' },
    ],
    [
      580000,
      'JPY',
      'ja',
      { text: expect.any(String), lead: '￥', whole: '580,000', fraction: '', trail: '' },
    ],
    [
      980,
      'JPY',
      'en',
      { text: expect.any(String), lead: '¥', whole: '980', fraction: '', trail: '' },
    ],
    [
      699,
      'USD',
      'ar',
      { text: expect.any(String), lead: '', whole: '6', fraction: '99', trail: 'US$' },
    ],
    [
      199900,
      'INR',
      'en',
      { text: expect.any(String), lead: '₹', whole: '1,999', fraction: '', trail: '' },
    ],
  ] as const)('%i %s in %s', (amount, currency, language, parts) => {
    expect(moneyParts(amount, currency, language)).toEqual(parts);
  });
});

describe('PlanPicker item (SPEC.md §3 plan picker item)', () => {
  it('shows the duration as its title and the price split into whole and cents', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[{ ...ITEMS[0]!, price: moneyParts(699, 'USD', 'en') }]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const item = radios()[0]!;
    expect(item.querySelector('.plan-picker__duration')?.textContent).toBe('7-day trial');
    expect(item.querySelector('.plan-picker__whole')?.textContent).toBe('6');
    expect(item.querySelector('.plan-picker__cents')?.textContent).toBe('99');
  });

  it('shows 00 cents for a whole price, and no cents for a currency without them', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[
          { id: 'a', duration: 'A', price: moneyParts(700, 'USD', 'en') },
          { id: 'b', duration: 'B', price: moneyParts(980, 'JPY', 'en') },
        ]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const [usd, jpy] = radios();
    expect(usd!.querySelector('.plan-picker__whole')?.textContent).toBe('7');
    expect(usd!.querySelector('.plan-picker__cents')?.textContent).toBe('00');
    expect(jpy!.querySelector('.plan-picker__whole')?.textContent).toBe('980');
    expect(jpy!.querySelector('.plan-picker__cents')).toBeNull();
  });

  it('puts the period under the cents, in the same column', () => {
    render(<PlanPicker label="Plans" items={ITEMS} activeId={null} onSelect={() => {}} />);
    const tail = radios()[0]!.querySelector('.plan-picker__tail')!;
    expect([...tail.children].map((child) => child.className)).toEqual([
      'plan-picker__cents',
      'plan-picker__period',
    ]);
    expect(tail.textContent).toBe('00per day');
  });

  it('strikes through the old price and the old full price beside the full price', () => {
    render(<PlanPicker label="Plans" items={ITEMS} activeId={null} onSelect={() => {}} />);
    const struck = [...radios()[0]!.querySelectorAll('s')].map((s) => s.textContent);
    expect(struck).toEqual(['$9.33', '$1.33']);
    expect(radios()[0]!.querySelector('.plan-picker__full')?.textContent).toBe('$9.33 $6.99');
    expect(radios()[1]!.querySelectorAll('s')).toHaveLength(0);
  });

  it("shows the sign of the price's currency", () => {
    render(
      <PlanPicker
        label="Plans"
        items={[ITEMS[1]!, { ...ITEMS[2]!, price: moneyParts(67, 'GBP', 'en') }]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const signs = [...document.querySelectorAll('.plan-picker__sign')].map((s) => s.textContent);
    expect(signs).toEqual(['$', '£']);
  });

  it('puts the sign after the amount where the page language does (1,00 $ in Russian)', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[{ ...ITEMS[1]!, price: moneyParts(100, 'USD', 'ru') }]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const parts = [...document.querySelectorAll('.plan-picker__amount > span')].map(
      (part) => part.className,
    );
    expect(parts).toEqual([
      'plan-picker__whole',
      'plan-picker__tail',
      'plan-picker__sign plan-picker__sign--after',
    ]);
  });

  it('shows the label banner above the plan only when the item has one', () => {
    render(<PlanPicker label="Plans" items={ITEMS} activeId={null} onSelect={() => {}} />);
    const [first, second] = radios();
    expect(first!.firstElementChild?.className).toBe('plan-picker__label');
    expect(first!.firstElementChild?.textContent).toBe('Most popular');
    expect(second!.querySelector('.plan-picker__label')).toBeNull();
  });

  it('reads the price as one phrase, not as split digits', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[{ ...ITEMS[1]!, priceText: '1,33 € per day' }, ITEMS[2]!]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const [first, second] = radios();
    expect(first!.querySelector('.plan-picker__amount')?.getAttribute('aria-hidden')).toBe('true');
    expect(first!.querySelector('.visually-hidden')?.textContent).toBe('1,33 € per day');
    expect(second!.querySelector('.visually-hidden')?.textContent).toBe('$0.67 per day');
    // The radio is named by its title and described by its price.
    const title = document.getElementById(first!.getAttribute('aria-labelledby')!);
    expect(title?.textContent).toBe('1-month plan');
  });
});

describe('PlanPicker selection (SPEC.md §4: the active id is marked selected)', () => {
  it('marks exactly the item whose id equals the active id', () => {
    render(<PlanPicker label="Plans" items={ITEMS} activeId="quarterly_usd" onSelect={() => {}} />);
    expect(checkedIds()).toEqual(['quarterly_usd']);
    expect(radios()[2]!.classList.contains('plan-picker__item--selected')).toBe(true);
    expect(radios()[0]!.classList.contains('plan-picker__item--selected')).toBe(false);
  });

  it('marks nothing when the active id is none of the items, and keeps one Tab stop', () => {
    render(<PlanPicker label="Plans" items={ITEMS} activeId="gone" onSelect={() => {}} />);
    expect(checkedIds()).toEqual([]);
    expect(radios().map((radio) => radio.tabIndex)).toEqual([0, -1, -1]);
  });

  it('is a radio group named by its label, with the selected item as the only Tab stop', () => {
    render(
      <PlanPicker
        label="Choose your plan"
        items={ITEMS}
        activeId="monthly_usd"
        onSelect={() => {}}
      />,
    );
    const group = screen.getByRole('radiogroup', { name: 'Choose your plan' });
    expect(within(group).getAllByRole('radio')).toHaveLength(3);
    expect(radios().map((radio) => radio.tabIndex)).toEqual([-1, 0, -1]);
  });

  it('reports the clicked plan', async () => {
    const onSelect = vi.fn();
    render(<PlanPicker label="Plans" items={ITEMS} activeId="monthly_usd" onSelect={onSelect} />);
    await userEvent.click(screen.getByText('3-month plan'));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenCalledWith(ITEMS[2]);
  });

  it('moves the selection and the focus with the arrow keys, wrapping at the ends', async () => {
    const onSelect = vi.fn();
    render(<Controlled onSelect={onSelect} />);
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(radios()[1]);
    await user.keyboard('{ArrowDown}');
    expect(checkedIds()).toEqual(['quarterly_usd']);
    expect(document.activeElement).toBe(radios()[2]);
    await user.keyboard('{ArrowDown}');
    expect(checkedIds()).toEqual(['monthly_7d_intro_usd']);
    await user.keyboard('{ArrowUp}');
    expect(checkedIds()).toEqual(['quarterly_usd']);
    await user.keyboard('{ArrowLeft}');
    expect(checkedIds()).toEqual(['monthly_usd']);
    await user.keyboard('{Home}');
    expect(checkedIds()).toEqual(['monthly_7d_intro_usd']);
    await user.keyboard('{End}');
    expect(checkedIds()).toEqual(['quarterly_usd']);
    expect(onSelect.mock.calls.map(([item]) => item.id)).toEqual([
      'quarterly_usd',
      'monthly_7d_intro_usd',
      'quarterly_usd',
      'monthly_usd',
      'monthly_7d_intro_usd',
      'quarterly_usd',
    ]);
  });

  it('selects the focused plan with Space', async () => {
    const onSelect = vi.fn();
    render(<PlanPicker label="Plans" items={ITEMS} activeId={null} onSelect={onSelect} />);
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard(' ');
    expect(onSelect).toHaveBeenCalledWith(ITEMS[0]);
  });

  it('swaps Left and Right in a right-to-left page', async () => {
    const { container } = render(
      <div dir="rtl">
        <Controlled />
      </div>,
    );
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{ArrowLeft}');
    expect(checkedIds()).toEqual(['quarterly_usd']);
    await user.keyboard('{ArrowRight}');
    expect(checkedIds()).toEqual(['monthly_usd']);
    expect(container.firstElementChild?.getAttribute('dir')).toBe('rtl');
  });
});

describe('radio group keys', () => {
  it('maps keys to moves, Left and Right following the text direction', () => {
    expect(radioKeyMove('ArrowDown', 'ltr')).toBe('next');
    expect(radioKeyMove('ArrowRight', 'ltr')).toBe('next');
    expect(radioKeyMove('ArrowRight', 'rtl')).toBe('previous');
    expect(radioKeyMove('ArrowLeft', 'rtl')).toBe('next');
    expect(radioKeyMove('Tab', 'ltr')).toBeNull();
  });

  it('wraps around both ends', () => {
    expect(movedIndex('next', 2, 3)).toBe(0);
    expect(movedIndex('previous', 0, 3)).toBe(2);
    expect(movedIndex('first', 2, 3)).toBe(0);
    expect(movedIndex('last', 0, 3)).toBe(2);
  });
});
