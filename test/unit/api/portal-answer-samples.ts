/**
 * One answer of each kind in the contract's own form (as the embedded portal answers), for the
 * tests of how the worker reads what a real product API may send instead.
 */

/** The number the worker looked up (the phone lookup's path parameter). */
export const LOOKED_UP = '+12025550123';

const SIGNED_IN = {
  data: {
    access_token: 'at_123',
    deeplink_token: 'dl_123',
    entity: { external_user_id: 'user_1' },
  },
};

const CHARGE = {
  subscription_id: 'sub_1',
  event_id: 'evt_1',
  price_with_discount: 6.99,
  currency: 'USD',
  plan_id: 'monthly_intro7_usd',
  card_brand: 'visa',
  card_last4: '4242',
  wallet: 'apple_pay',
};

export const CANONICAL_ANSWERS = {
  signup: SIGNED_IN,
  socialSignIn: SIGNED_IN,
  paymentSettings: {
    stripe_publishable_key: 'pk_test_1',
    stripe_account_name: 'Geozilla',
    braintree_client_token: 'bt_1',
    payment_gateway: 'stripe',
    request_three_d_secure: true,
  },
  deeplink: {
    data: {
      short_deeplink: 'https://gz.example/l/abc?token=t',
      qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
    },
  },
  country: { country_code: 'DE' },
  phoneInfo: {
    data: {
      phone: LOOKED_UP,
      valid: true,
      country: 'US',
      type: 'MOBILE',
      carrier: 'Verizon',
      city: 'Washington',
      timezone: 'America/New_York',
      location: { lat: 38.9, lng: -77.03 },
    },
  },
  pollingSubscription: { data: { polling_result_id: 'poll_1' } },
  pollingResult: {
    data: {
      result_data: {
        status: 'succeeded',
        data: { receipt: 'r_1' },
        payment_intent_secret: 'pi_1_secret',
        payment_intent_id: 'pi_1',
        decline_code: 'insufficient_funds',
        processor_response: '2001',
        ...CHARGE,
      },
    },
  },
  directSubscription: {
    data: {
      customer_id: 'cus_1',
      payment_method_nonce: 'nonce_1',
      validation_amount: 6.99,
      ...CHARGE,
    },
  },
  deeplinkConsume: { data: { external_user_id: 'user_1', access_token: 'at_456' } },
  refusal: {
    errors: { messages: ['Card declined'] },
    code: 'card_declined',
    decline_code: 'do_not_honor',
  },
} as const;

/** A deep copy of `answer` with the field at `path` set to `value` (undefined: left out). */
export function withField(answer: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(answer) as Record<string, unknown>;
  const keys = path.split('.');
  let into: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    const next = into[key];
    if (typeof next !== 'object' || next === null) into[key] = {};
    into = into[key] as Record<string, unknown>;
  }
  const last = keys.at(-1) as string;
  if (value === undefined) delete into[last];
  else into[last] = value;
  return copy;
}
