import { type KeyboardEvent, useId, useRef } from 'react';
import type { MoneyParts } from '../../shared/plans/money';

/** SPEC.md §3 "Plan picker item". Every text arrives translated and formatted from the server. */
export interface PlanPickerItem {
  id: string;
  /** Title text ('7-day trial'). */
  duration: string;
  /**
   * The big price in the pieces Intl formats it in for the page's language and currency
   * (shared/plans/money.ts moneyParts): the sign on the side and with the spacing the language
   * writes it, the whole part big, the fraction small (none for yen).
   */
  price: MoneyParts;
  /** Small label under the cents ('per day'). */
  period?: string;
  /** Struck-through price beside the big one. */
  oldPrice?: string;
  /** What the plan costs in full, under the title. */
  fullPrice?: string;
  /** Struck-through full price before fullPrice. */
  oldFullPrice?: string;
  /** Optional banner above the plan ('Most popular'). */
  label?: string;
  /** The big price as read aloud, formatted for the page language ('$1.00 per day'). */
  priceText?: string;
}

type Move = 'next' | 'previous' | 'first' | 'last';

/**
 * WAI-ARIA radio group keys: arrows move to the neighbour (wrapping), Home and End to the ends.
 * Left and Right swap in right-to-left pages, where the next item sits to the left.
 */
export function radioKeyMove(key: string, direction: 'ltr' | 'rtl'): Move | null {
  switch (key) {
    case 'ArrowDown':
      return 'next';
    case 'ArrowUp':
      return 'previous';
    case 'ArrowRight':
      return direction === 'rtl' ? 'previous' : 'next';
    case 'ArrowLeft':
      return direction === 'rtl' ? 'next' : 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    default:
      return null;
  }
}

/** Index an arrow key lands on among `count` items. */
export function movedIndex(move: Move, from: number, count: number): number {
  if (move === 'first') return 0;
  if (move === 'last') return count - 1;
  const step = move === 'next' ? 1 : -1;
  return (from + step + count) % count;
}

function directionOf(element: Element): 'ltr' | 'rtl' {
  return element.closest('[dir]')?.getAttribute('dir') === 'rtl' ? 'rtl' : 'ltr';
}

function PlanPickerOption({
  item,
  selected,
  focusable,
  onSelect,
  onKeyDown,
  register,
}: {
  item: PlanPickerItem;
  selected: boolean;
  focusable: boolean;
  onSelect: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  register: (element: HTMLDivElement | null) => void;
}) {
  const id = useId();
  const { lead, whole, fraction, trail } = item.price;
  const spoken = item.priceText ?? `${item.price.text} ${item.period ?? ''}`.trim();
  const classes = ['plan-picker__item'];
  if (selected) classes.push('plan-picker__item--selected');
  if (item.label) classes.push('plan-picker__item--labelled');
  return (
    // biome-ignore lint/a11y/useSemanticElements: a radio card holding a price layout; the group follows the WAI-ARIA radio pattern (roving tabindex, arrows, aria-checked).
    <div
      ref={register}
      role="radio"
      aria-checked={selected}
      aria-labelledby={`${id}title`}
      aria-describedby={`${id}price`}
      tabIndex={focusable ? 0 : -1}
      className={classes.join(' ')}
      data-plan-id={item.id}
      onClick={onSelect}
      onKeyDown={onKeyDown}
    >
      {item.label ? <span className="plan-picker__label">{item.label}</span> : null}
      <span className="plan-picker__body">
        <span className="plan-picker__check" aria-hidden="true" />
        <span className="plan-picker__main">
          <span className="plan-picker__duration" id={`${id}title`}>
            {item.duration}
          </span>
          {item.fullPrice ? (
            <span className="plan-picker__full">
              {item.oldFullPrice ? <s className="plan-picker__old">{item.oldFullPrice}</s> : null}{' '}
              {item.fullPrice}
            </span>
          ) : null}
        </span>
        <span className="plan-picker__price" id={`${id}price`}>
          {item.oldPrice ? <s className="plan-picker__old">{item.oldPrice}</s> : null}
          <span className="plan-picker__amount" aria-hidden="true">
            {lead ? <span className="plan-picker__sign">{lead}</span> : null}
            <span className="plan-picker__whole">{whole}</span>
            <span className="plan-picker__tail">
              {fraction ? <span className="plan-picker__cents">{fraction}</span> : null}
              {item.period ? <span className="plan-picker__period">{item.period}</span> : null}
            </span>
            {trail ? (
              <span className="plan-picker__sign plan-picker__sign--after">{trail}</span>
            ) : null}
          </span>
          <span className="visually-hidden">{spoken}</span>
        </span>
      </span>
    </div>
  );
}

/**
 * The subscription plan picker (SPEC.md §2, §4): the item whose id equals the active id is
 * marked selected; clicking an item, or moving to it with the arrow keys, reports it.
 */
export function PlanPicker({
  items,
  activeId,
  onSelect,
  label,
}: {
  items: readonly PlanPickerItem[];
  activeId: string | null;
  onSelect: (item: PlanPickerItem) => void;
  /** Accessible name of the group ('Choose your plan'). */
  label: string;
}) {
  const elements = useRef<(HTMLDivElement | null)[]>([]);
  const activeIndex = items.findIndex((item) => item.id === activeId);
  // With nothing selected the first item takes the Tab stop, as in a native radio group.
  const tabStop = activeIndex === -1 ? 0 : activeIndex;

  function onKeyDown(index: number, event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      const item = items[index];
      if (item) onSelect(item);
      return;
    }
    const move = radioKeyMove(event.key, directionOf(event.currentTarget));
    if (!move) return;
    event.preventDefault();
    const target = movedIndex(move, index, items.length);
    const item = items[target];
    if (!item) return;
    onSelect(item);
    elements.current[target]?.focus();
  }

  return (
    <div role="radiogroup" aria-label={label} className="plan-picker">
      {items.map((item, index) => (
        <PlanPickerOption
          key={item.id}
          item={item}
          selected={index === activeIndex}
          focusable={index === tabStop}
          onSelect={() => onSelect(item)}
          onKeyDown={(event) => onKeyDown(index, event)}
          register={(element) => {
            elements.current[index] = element;
          }}
        />
      ))}
    </div>
  );
}
