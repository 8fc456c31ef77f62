import type { PaymentSettingsResponse } from '../../shared/api/contract';
import { getPaymentSettings } from '../api/client';
import { setLoading } from '../stores/loader';
import { $signup } from '../stores/signup';
import { type Sleep, withRetries } from './retry';

/** SPEC.md §4, §9: a failed payment-settings call is tried 2 more times, 1000 ms apart. */
const PAYMENT_SETTINGS_RETRIES = 2;
const PAYMENT_SETTINGS_RETRY_DELAY_MS = 1000;

/** SPEC.md §4: the card provider, used when the settings give no gateway or never arrive. */
const DEFAULT_CARD_PROVIDER = 'stripe';
/**
 * SPEC.md §4 "the card provider with default key and name". No default publishable key is
 * configured yet: the checkout issue, which loads the provider's SDK, supplies it.
 */
const DEFAULT_STRIPE_ACCOUNT = { key: '', name: '' } as const;

/** The signup slice's payment fields for a settings answer (SPEC.md §3 Signup state). */
function paymentFieldsOf(settings: PaymentSettingsResponse) {
  return {
    paymentProvider: settings.payment_gateway || DEFAULT_CARD_PROVIDER,
    cardProvider: settings.payment_provider ?? '',
    stripe: {
      key: settings.stripe_publishable_key ?? DEFAULT_STRIPE_ACCOUNT.key,
      name: settings.stripe_account_name ?? DEFAULT_STRIPE_ACCOUNT.name,
    },
    btToken: settings.braintree_client_token ?? '',
    threeDS: settings.request_three_d_secure ? 1 : 0,
    paymentSettingsStatus: 'success' as const,
  };
}

/** The signup slice's payment fields once every attempt has failed (SPEC.md §4). */
const FAILED_PAYMENT_FIELDS = {
  paymentProvider: DEFAULT_CARD_PROVIDER,
  stripe: { ...DEFAULT_STRIPE_ACCOUNT },
  paymentSettingsStatus: 'fail' as const,
};

/**
 * SPEC.md §4 Payment settings, after sign-up: on success the provider is the given gateway; on
 * failure the call is retried, and after the retries the status is 'fail' with the default card
 * provider. Loading is cleared when the status is set. Never rejects.
 */
export async function loadPaymentSettings(options: { sleep?: Sleep } = {}): Promise<void> {
  try {
    const settings = await withRetries(() => getPaymentSettings(), {
      retries: PAYMENT_SETTINGS_RETRIES,
      delayMs: PAYMENT_SETTINGS_RETRY_DELAY_MS,
      sleep: options.sleep,
    });
    $signup.set({ ...$signup.get(), ...paymentFieldsOf(settings) });
  } catch {
    $signup.set({ ...$signup.get(), ...FAILED_PAYMENT_FIELDS });
  }
  setLoading(false);
}
