import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 Plans state. */
export const $plans = persistedSlice<{
  showCheckout: boolean;
  flowType: string;
  plan: string;
  upsellPlan: string;
  planDetails: Record<string, unknown> | null;
  couponDetails: Record<string, unknown> | null;
}>('plans', {
  showCheckout: false,
  flowType: 'default',
  plan: '',
  upsellPlan: '',
  planDetails: null,
  couponDetails: null,
});
