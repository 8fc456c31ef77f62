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
  splitPrice,
} from '../../../islands/kit/PlanPicker';

afterEach(cleanup);

const ITEMS: PlanPickerItem[] = [
  {
    id: 'monthly_7d_intro_usd',
    duration: '7-day trial',
    price: '1.00',
    period: 'per day',
    oldPrice: '$1.33',
    fullPrice: '$6.99',
    oldFullPrice: '$9.33',
    label: 'Most popular',
  },
  { id: 'monthly_usd', duration: '1-month plan', price: '1.33', period: 'per day' },
  { id: 'quarterly_usd', duration: '3-month plan', price: '0.67', period: 'per day' },
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

describe('splitPrice (SPEC.md §3: split at the dot, cents default to 00)', () => {
  it.each([
    ['6.99', '6', '99'],
    ['7', '7', '00'],
    ['7.', '7', '00'],
    ['7.5', '7', '50'],
    ['0.67', '0', '67'],
    ['39.99', '39', '99'],
  ])('%s shows %s and %s', (price, whole, cents) => {
    expect(splitPrice(price)).toEqual({ whole, cents });
  });
});

describe('PlanPicker item (SPEC.md §3 plan picker item)', () => {
  it('shows the duration as its title and the price split into whole and cents', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[{ ...ITEMS[0]!, price: '6.99' }]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const item = radios()[0]!;
    expect(item.querySelector('.plan-picker__duration')?.textContent).toBe('7-day trial');
    expect(item.querySelector('.plan-picker__whole')?.textContent).toBe('6');
    expect(item.querySelector('.plan-picker__cents')?.textContent).toBe('99');
  });

  it('shows 00 cents for a whole price', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[{ id: 'a', duration: 'A', price: '7' }]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    expect(document.querySelector('.plan-picker__whole')?.textContent).toBe('7');
    expect(document.querySelector('.plan-picker__cents')?.textContent).toBe('00');
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

  it('shows the dollar sign by default and the given currency sign otherwise', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[ITEMS[1]!, { ...ITEMS[2]!, currencySign: '€' }]}
        activeId={null}
        onSelect={() => {}}
      />,
    );
    const signs = [...document.querySelectorAll('.plan-picker__sign')].map((s) => s.textContent);
    expect(signs).toEqual(['$', '€']);
  });

  it('puts the sign after the amount where the page language does (1,00 $ in Russian)', () => {
    render(
      <PlanPicker
        label="Plans"
        items={[{ ...ITEMS[1]!, signAfter: true }]}
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
