import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../shared/api/answer-fields';
import { SUBSCRIPTION_READ_ANSWER } from '../../../shared/api/subscriber-calls';

/**
 * The add-ons a subscription's read lists (shared/api/subscriber-calls.ts `add_ons`), read as
 * tolerantly as its other fields (docs/product-api.md, "The subscriber's page: calls the worker
 * makes"): a product API that names none, or names them oddly, still opens the page, and an
 * entry the page cannot act on is dropped without costing the others.
 */

const ADD_ON = {
  subscription_id: 'sub_addon',
  plan_id: 'upsell_monthly_999_usd',
  status: 'active',
  currency: 'USD',
  paid_amount: 9.99,
  charged_at: '2026-11-01T10:00:00.000Z',
  renewal_amount: 9.99,
  renews_at: '2026-12-01T10:00:00.000Z',
  ends_at: null,
};

function read(addOns: unknown) {
  const data = addOns === undefined ? { status: 'active' } : { status: 'active', add_ons: addOns };
  const reading = readAnswer(SUBSCRIPTION_READ_ANSWER, { data });
  if (!reading.ok) throw new Error(`refused: ${reading.missing}`);
  // The subscription's own fields are left out here: only the add-ons' drift is this test's.
  const drift = reading.drift
    .map((d) => d.field)
    .filter((field) => field.startsWith('data.add_ons'));
  return { addOns: reading.value.data.add_ons, drift };
}

describe('the add-ons of a subscription’s read', () => {
  it('takes each add-on as the contract names it, with no drift', () => {
    expect(read([ADD_ON])).toEqual({ addOns: [ADD_ON], drift: [] });
  });

  it('absent: none, quietly (a product API without add-ons)', () => {
    expect(read(undefined)).toEqual({ addOns: [], drift: [] });
  });

  it('null or no list: none, and the drift noted; the page still opens', () => {
    for (const odd of [null, 'sub_addon', { 0: ADD_ON }, 3]) {
      expect(read(odd)).toEqual({ addOns: [], drift: ['data.add_ons'] });
    }
  });

  it('drops an entry without its id or its status, or that is no object, and keeps the rest', () => {
    const { subscription_id: _id, ...unnamed } = ADD_ON;
    const reading = readAnswer(SUBSCRIPTION_READ_ANSWER, {
      data: {
        status: 'active',
        add_ons: [unnamed, { ...ADD_ON, status: '' }, 'sub_x', { ...ADD_ON, subscription_id: 'b' }],
      },
    });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.value.data.add_ons).toEqual([{ ...ADD_ON, subscription_id: 'b' }]);
    expect(reading.drift.filter((d) => d.field.startsWith('data.add_ons'))).toEqual([
      { field: 'data.add_ons[].subscription_id', found: 'missing (entry dropped)' },
      { field: 'data.add_ons[].status', found: 'string (unusable) (entry dropped)' },
      { field: 'data.add_ons[]', found: 'string (entry dropped)' },
    ]);
  });

  it('takes an entry’s other fields in other forms, and makes do without them', () => {
    const { addOns, drift } = read([
      { subscription_id: 42, status: 'Canceled', paid_amount: '6.99', ends_at: 'x' },
    ]);
    expect(addOns).toEqual([
      {
        subscription_id: '42',
        status: 'canceled',
        plan_id: null,
        currency: null,
        paid_amount: 6.99,
        charged_at: null,
        renewal_amount: null,
        renews_at: null,
        ends_at: 'x',
      },
    ]);
    expect(drift).toContain('data.add_ons[].subscription_id');
    expect(drift).toContain('data.add_ons[].status');
    expect(drift).toContain('data.add_ons[].plan_id');
  });

  it('reads ten at most; the rest are dropped, and that is drift', () => {
    const many = Array.from({ length: 12 }, (_, n) => ({ ...ADD_ON, subscription_id: `s${n}` }));
    const { addOns, drift } = read(many);
    expect(addOns.map((addOn) => addOn.subscription_id)).toEqual(
      many.slice(0, 10).map((addOn) => addOn.subscription_id),
    );
    expect(drift).toEqual(['data.add_ons']);
  });

  it('lists its rules for the docs: the list optional, an entry’s id and status required', () => {
    const rules = SUBSCRIPTION_READ_ANSWER.rules('').filter((rule) =>
      rule.path.startsWith('data.add_ons'),
    );
    expect(rules).toContainEqual({ path: 'data.add_ons', rule: 'optional' });
    expect(rules).toContainEqual({ path: 'data.add_ons[].subscription_id', rule: 'required' });
    expect(rules).toContainEqual({ path: 'data.add_ons[].status', rule: 'required' });
    expect(rules).toContainEqual({ path: 'data.add_ons[].ends_at', rule: 'optional' });
  });
});
