import { persistedSlice } from './persisted-slice';

/**
 * SPEC.md §3 Signup state. The access token is deliberately absent: the worker keeps it in an
 * HttpOnly cookie, so page JavaScript never holds it.
 */
export const $signup = persistedSlice<{
  uuid: string;
  email: string;
  name: string;
  emailValidity: boolean;
  btToken: string;
  deeplinkToken: string;
  deeplinkUrl: string;
  deeplinkQR: string;
  userId: string;
  isSuccess: boolean;
  stripe: { key: string; name: string } | null;
  paymentProvider: string;
  /** The card provider the worker routed this checkout to (`payment_provider`), else ''. */
  cardProvider: string;
  paymentSettingsStatus: 'success' | 'fail' | null;
  threeDS: number;
  userLocation: string | null;
}>('signup', {
  uuid: '',
  email: '',
  name: '',
  emailValidity: false,
  btToken: '',
  deeplinkToken: '',
  deeplinkUrl: '',
  deeplinkQR: '',
  userId: '',
  isSuccess: false,
  stripe: null,
  paymentProvider: '',
  cardProvider: '',
  paymentSettingsStatus: null,
  threeDS: 0,
  userLocation: null,
});
