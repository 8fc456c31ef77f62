// @vitest-environment happy-dom
import { cleanStores, STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $offerEnded } from '../../../islands/stores/offer';
import {
  choosePlan,
  planChoiceStore as newPlanChoiceStore,
  type PlanChoiceStore,
} from '../../../islands/stores/plan-choice';
import { $plans } from '../../../islands/stores/plans';

const plan = (id: string, price: string) => ({ id, details: { id, price } });
const OFFER = { options: [plan('week', '6.99'), plan('month', '19.99')], defaultId: 'week' };
const REGULAR = { options: [plan('week', '9.99'), plan('month', '29.99')], defaultId: 'week' };

beforeEach(async () => {
  // A thread's files share these stores (isolate: false in vitest.config.ts): a plan choice an
  // island of the file before left listens to the offer for nanostores' STORE_UNMOUNT_DELAY, and
  // would answer this file's end of the offer with its own plans. Nothing listens once it is gone.
  await vi.waitFor(() => expect($offerEnded.lc).toBe(0), { timeout: 2 * STORE_UNMOUNT_DELAY });
  localStorage.clear();
  $plans.set({ ...$plans.get(), plan: '', upsellPlan: '', planDetails: null });
  $offerEnded.set(false);
});
/** The stores a test made, stopped after it so none follows the offer into the next. */
const made: PlanChoiceStore[] = [];
const planChoiceStore: typeof newPlanChoiceStore = (...args) => {
  const $chosen = newPlanChoiceStore(...args);
  made.push($chosen);
  return $chosen;
};
afterEach(() => {
  cleanStores(...made.splice(0));
  vi.useRealTimers();
});

describe("a plan picker's choice (SPEC.md §3 Plans state)", () => {
  it('shows the default and stores nothing before the island listens', () => {
    $plans.setKey('plan', 'month');
    const $chosen = planChoiceStore('plan', OFFER);
    expect($chosen.value).toBe('week');
    expect($plans.get().planDetails).toBeNull();
  });

  it('then applies the choice stored before a reload, with its details', () => {
    $plans.setKey('plan', 'month');
    const $chosen = planChoiceStore('plan', OFFER);
    $chosen.listen(() => {});
    expect($chosen.value).toBe('month');
    expect($plans.get().planDetails).toEqual({ id: 'month', price: '19.99' });
  });

  it("stores the default as the choice when none is stored, or the stored one isn't offered", () => {
    $plans.setKey('upsellPlan', 'year');
    const $chosen = planChoiceStore('upsellPlan', OFFER);
    $chosen.listen(() => {});
    expect($chosen.value).toBe('week');
    expect($plans.get()).toMatchObject({ upsellPlan: 'week', planDetails: null });
  });

  it("keeps the visitor's pick, and its regular price once the offer ends", () => {
    const $chosen = planChoiceStore('plan', OFFER, REGULAR);
    $chosen.listen(() => {});
    choosePlan($chosen, 'plan', OFFER.options[1]!);
    expect($plans.get().planDetails).toEqual({ id: 'month', price: '19.99' });
    $offerEnded.set(true);
    expect($chosen.value).toBe('month');
    expect($plans.get().planDetails).toEqual({ id: 'month', price: '29.99' });
  });

  it('no longer follows the offer once the island has gone', () => {
    vi.useFakeTimers();
    const $chosen = planChoiceStore('plan', OFFER, REGULAR);
    const unlisten = $chosen.listen(() => {});
    unlisten();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
    $offerEnded.set(true);
    expect($plans.get().planDetails).toEqual({ id: 'week', price: '6.99' });
  });
});
