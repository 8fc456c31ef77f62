import { describe, expect, it } from 'vitest';
import { type Field, readAnswer } from '../../../shared/api/answer-fields';
import { API_CALLS, type ApiCallName } from '../../../shared/api/contract';
import {
  DEEPLINK_CONSUME_ANSWER,
  PORTAL_ANSWERS,
  PORTAL_REFUSAL,
} from '../../../shared/api/portal-answers';
import { CANONICAL_ANSWERS, LOOKED_UP, withField } from './portal-answer-samples';

/**
 * Every field of every answer the worker reads from the product API (SPEC.md §7), with its rule:
 * required (the answer is refused without it) or optional (and what the browser gets without
 * it), and the forms a real API may send it in that are taken. The table "The product API's
 * answers, field by field" of docs/product-api.md says the same (portal-answers-docs.test.ts).
 */

type Answer = keyof typeof CANONICAL_ANSWERS;

interface Row {
  answer: Answer;
  field: string;
  rule: 'required' | 'optional';
  /** What the browser gets when the field is absent (optional fields only). */
  without?: unknown;
  /** Other forms that are taken: [sent, what the browser gets, what the warning says was found]. */
  taken?: [sent: unknown, got: unknown, found: string][];
  /** Values that cannot be used: refused when required, else the fallback with a warning. */
  unusable?: unknown[];
}

const NOT_TEXT = [true, { a: 1 }, ['x'], ''];

const ROWS: Row[] = [
  // POST /signup and POST /authorize_social_via_access_token
  ...(['signup', 'socialSignIn'] as const).flatMap((answer): Row[] => [
    { answer, field: 'data', rule: 'required', unusable: ['x', [1]] },
    {
      answer,
      field: 'data.access_token',
      rule: 'required',
      taken: [[12345, '12345', 'number']],
      unusable: NOT_TEXT,
    },
    {
      answer,
      field: 'data.deeplink_token',
      rule: 'optional',
      without: '',
      taken: [[77, '77', 'number']],
      unusable: [true, {}],
    },
    { answer, field: 'data.entity', rule: 'optional', without: { external_user_id: null } },
    {
      answer,
      field: 'data.entity.external_user_id',
      rule: 'optional',
      without: null,
      taken: [[4021, '4021', 'number']],
      unusable: NOT_TEXT,
    },
  ]),
  // GET /users/me/payments-settings
  ...['stripe_publishable_key', 'stripe_account_name', 'braintree_client_token'].map(
    (field): Row => ({
      answer: 'paymentSettings',
      field,
      rule: 'optional',
      without: null,
      unusable: NOT_TEXT,
    }),
  ),
  {
    answer: 'paymentSettings',
    field: 'payment_gateway',
    rule: 'optional',
    without: null,
    taken: [
      ['Braintree', 'braintree', 'string (letter case)'],
      [' STRIPE ', 'stripe', 'string (letter case)'],
    ],
    unusable: ['adyen', 3, null],
  },
  {
    answer: 'paymentSettings',
    field: 'request_three_d_secure',
    rule: 'optional',
    without: false,
    taken: [
      [1, true, 'number'],
      [0, false, 'number'],
      ['1', true, 'string'],
      ['0', false, 'string'],
      ['TRUE', true, 'string'],
      ['false', false, 'string'],
    ],
    unusable: [2, 'maybe', {}, null],
  },
  // GET /users/me/deeplink-qr-code
  { answer: 'deeplink', field: 'data', rule: 'required', unusable: [[], 'x'] },
  {
    answer: 'deeplink',
    field: 'data.short_deeplink',
    rule: 'required',
    unusable: ['http://gz.example/l?token=t', 'javascript:alert(1)', 'data:text/html,<p>', 12, ''],
  },
  {
    answer: 'deeplink',
    field: 'data.qr_code',
    rule: 'optional',
    without: null,
    taken: [
      [
        'data:image/png;base64,iVBORw0KGgo=',
        'data:image/png;base64,iVBORw0KGgo=',
        'string (another image type)',
      ],
      ['data:image/jpeg;base64,/9j/', 'data:image/jpeg;base64,/9j/', 'string (another image type)'],
      ['https://cdn.gz.example/qr/abc.png', 'https://cdn.gz.example/qr/abc.png', 'string (a link)'],
    ],
    unusable: [
      '<svg/>',
      'data:text/html;base64,PHNjcmlwdD4=',
      'javascript:1',
      'http://x.example/q.png',
      7,
    ],
  },
  // GET /cf-country
  {
    answer: 'country',
    field: 'country_code',
    rule: 'optional',
    without: null,
    taken: [['de', 'DE', 'string (letter case)']],
    unusable: ['DEU', 'Germany', 49, ''],
  },
  // GET /phone-number-info/{phone}
  { answer: 'phoneInfo', field: 'data', rule: 'required', unusable: ['located', [1], 1] },
  {
    answer: 'phoneInfo',
    field: 'data.phone',
    rule: 'optional',
    without: LOOKED_UP,
    taken: [
      ['(202) 555-0123', LOOKED_UP, 'string (another form)'],
      [12025550123, LOOKED_UP, 'number'],
    ],
  },
  {
    answer: 'phoneInfo',
    field: 'data.valid',
    rule: 'optional',
    without: true,
    taken: [
      ['1', true, 'string'],
      [0, false, 'number'],
    ],
    unusable: ['perhaps', null],
  },
  {
    answer: 'phoneInfo',
    field: 'data.country',
    rule: 'optional',
    without: null,
    taken: [['us', 'US', 'string (letter case)']],
    unusable: ['USA', 1],
  },
  ...['type', 'carrier', 'city', 'timezone'].map(
    (name): Row => ({
      answer: 'phoneInfo',
      field: `data.${name}`,
      rule: 'optional',
      without: null,
      unusable: NOT_TEXT,
    }),
  ),
  {
    answer: 'phoneInfo',
    field: 'data.location',
    rule: 'optional',
    without: null,
    taken: [
      [{ lat: 40.7, lon: -74 }, { lat: 40.7, lng: -74 }, 'object (other names or types)'],
      [
        { latitude: '40.7', longitude: '-74' },
        { lat: 40.7, lng: -74 },
        'object (other names or types)',
      ],
    ],
    unusable: [{ lat: 91, lng: 0 }, { lat: 1 }, '40.7,-74', [40.7, -74]],
  },
  // POST /users/me/subscriptions/polling/{planId}
  { answer: 'pollingSubscription', field: 'data', rule: 'required', unusable: ['x'] },
  {
    answer: 'pollingSubscription',
    field: 'data.polling_result_id',
    rule: 'required',
    taken: [[901, '901', 'number']],
    unusable: ['', ' ', 'a/b', 'x'.repeat(129), true, {}],
  },
  // GET /polling/get-result/{pollingId}
  { answer: 'pollingResult', field: 'data', rule: 'optional', without: { result_data: null } },
  {
    answer: 'pollingResult',
    field: 'data.result_data',
    rule: 'optional',
    without: null,
    unusable: ['done', 1],
  },
  {
    answer: 'pollingResult',
    field: 'data.result_data.status',
    rule: 'required',
    taken: [['Succeeded', 'succeeded', 'string (letter case)']],
    unusable: ['', 1, true],
  },
  ...chargeRows('pollingResult', 'data.result_data', [
    'subscription_id',
    'event_id',
    'payment_intent_secret',
    'payment_intent_id',
    'decline_code',
    'processor_response',
    'plan_id',
  ]),
  ...networkCodeRows('pollingResult', 'data.result_data.', null),
  {
    answer: 'pollingResult',
    field: 'data.result_data.data',
    rule: 'optional',
    without: undefined,
  },
  // POST /users/me/subscriptions/{planId}
  { answer: 'directSubscription', field: 'data', rule: 'optional', without: directWithout() },
  ...chargeRows('directSubscription', 'data', [
    'customer_id',
    'subscription_id',
    'event_id',
    'payment_method_nonce',
    'plan_id',
  ]),
  {
    answer: 'directSubscription',
    field: 'data.validation_amount',
    rule: 'optional',
    without: null,
    unusable: ['', true],
  },
  // POST /deeplink/consume (the app's login link)
  { answer: 'deeplinkConsume', field: 'data', rule: 'required', unusable: ['x'] },
  {
    answer: 'deeplinkConsume',
    field: 'data.access_token',
    rule: 'required',
    unusable: NOT_TEXT,
  },
  {
    answer: 'deeplinkConsume',
    field: 'data.external_user_id',
    rule: 'optional',
    without: undefined,
    taken: [[4021, '4021', 'number']],
  },
  // A refusal (non-2xx): SPEC.md §7 errors.messages
  {
    answer: 'refusal',
    field: 'errors',
    rule: 'required',
    taken: [
      [{ messages: 'Card declined' }, { messages: ['Card declined'] }, 'string'],
      [['Card declined'], { messages: ['Card declined'] }, 'array (errors as texts)'],
      ['Card declined', { messages: ['Card declined'] }, 'string (errors as texts)'],
      [
        { email: ['The email has already been taken.'] },
        { messages: ['The email has already been taken.'] },
        'object (texts by field)',
      ],
    ],
    unusable: [{}, { messages: [1, 2] }, 5],
  },
  { answer: 'refusal', field: 'code', rule: 'optional', without: undefined },
  {
    answer: 'refusal',
    field: 'decline_code',
    rule: 'optional',
    without: undefined,
    taken: [[51, '51', 'number']],
  },
  ...networkCodeRows('refusal', '', undefined),
  {
    answer: 'refusal',
    field: 'data',
    rule: 'optional',
    without: undefined,
    taken: [
      [
        { payment_method_nonce: 'n', validation_amount: '6.99' },
        { payment_method_nonce: 'n', validation_amount: '6.99' },
        '',
      ],
    ],
    unusable: [{ payment_method_nonce: 'n' }, 'x'],
  },
];

/** The id and money fields a charge answer may carry, each optional and null without. */
/** A decline's network codes (ours): as the networks write them, a number with its zero. */
function networkCodeRows(answer: Answer, at: string, without: null | undefined): Row[] {
  return ['network_decline_code', 'network_advice_code'].map((name) => ({
    answer,
    field: `${at}${name}`,
    rule: 'optional',
    without,
    taken: [
      [5, '05', 'number'],
      ['r1', 'R1', 'string (another spelling)'],
    ],
    unusable: [true, '', 'no code'],
  }));
}

function chargeRows(answer: Answer, at: string, ids: string[]): Row[] {
  return [
    ...ids.map(
      (name): Row => ({
        answer,
        field: `${at}.${name}`,
        rule: 'optional',
        without: null,
        taken: [[31, '31', 'number']],
        unusable: [true, ''],
      }),
    ),
    {
      answer,
      field: `${at}.price_with_discount`,
      rule: 'optional',
      without: null,
      taken: [['6.99', 6.99, 'string']],
      unusable: ['six', Number.POSITIVE_INFINITY, true],
    },
    {
      answer,
      field: `${at}.currency`,
      rule: 'optional',
      without: null,
      taken: [['eur', 'EUR', 'string (letter case)']],
      unusable: ['euro', 978],
    },
    // What was charged, shown to the visitor: a name or four digits, never markup or a number
    // that lost its leading zeros.
    ...['card_brand', 'wallet'].map(
      (name): Row => ({
        answer,
        field: `${at}.${name}`,
        rule: 'optional',
        without: null,
        taken: [
          ['American Express', 'american_express', 'string (another spelling)'],
          ['apple-pay', 'apple_pay', 'string (another spelling)'],
        ],
        unusable: ['<img src=x>', 'x'.repeat(25), 4, ''],
      }),
    ),
    {
      answer,
      field: `${at}.card_last4`,
      rule: 'optional',
      without: null,
      taken: [['4242424242424242', '4242', 'string (a longer number)']],
      unusable: [42, '42', '42a2', '<b>4242', true],
    },
  ];
}

function directWithout() {
  const fields = [
    'customer_id',
    'subscription_id',
    'event_id',
    'price_with_discount',
    'payment_method_nonce',
    'validation_amount',
    'currency',
    'plan_id',
    'card_brand',
    'card_last4',
    'wallet',
  ];
  return Object.fromEntries(fields.map((name) => [name, null]));
}

const SHAPES: Record<Answer, Field<unknown>> = {
  ...PORTAL_ANSWERS,
  deeplinkConsume: DEEPLINK_CONSUME_ANSWER,
  refusal: PORTAL_REFUSAL,
};

const read = (answer: Answer, body: unknown) =>
  readAnswer(SHAPES[answer], body, { phone: LOOKED_UP });

/** The value at `path` of a read answer. */
function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((into, key) => (into as Record<string, unknown>)?.[key], value);
}

describe('each field of each answer, by its rule', () => {
  it.each(ROWS.map((row) => [`${row.answer} ${row.field}`, row] as const))('%s', (_, row) => {
    const canonical = CANONICAL_ANSWERS[row.answer];
    // The contract's own form is taken as it is, with no warning.
    const plain = read(row.answer, canonical);
    expect(plain).toMatchObject({ ok: true, drift: [] });

    const dropped = read(row.answer, withField(canonical, row.field, undefined));
    if (row.rule === 'required') {
      expect(dropped).toMatchObject({ ok: false, missing: row.field });
      expect(read(row.answer, withField(canonical, row.field, null))).toMatchObject({
        ok: false,
        missing: row.field,
      });
    } else {
      expect(dropped.ok).toBe(true);
      if (dropped.ok) expect(at(dropped.value, row.field)).toEqual(row.without);
    }

    for (const [sent, got, found] of row.taken ?? []) {
      const taken = read(row.answer, withField(canonical, row.field, sent));
      expect(taken.ok, `takes ${JSON.stringify(sent)}`).toBe(true);
      if (!taken.ok) continue;
      expect(at(taken.value, row.field)).toEqual(got);
      expect(taken.drift).toEqual(found ? [{ field: row.field, found }] : []);
    }
    for (const sent of row.unusable ?? []) {
      const reading = read(row.answer, withField(canonical, row.field, sent));
      if (row.rule === 'required') {
        expect(reading, `refuses ${JSON.stringify(sent)}`).toMatchObject({ ok: false });
      } else {
        expect(reading.ok, `defaults ${JSON.stringify(sent)}`).toBe(true);
        if (!reading.ok) continue;
        expect(at(reading.value, row.field)).toEqual(row.without);
        expect(reading.drift.map((note) => note.field)).toContain(row.field);
      }
    }
  });

  it('covers every field the worker reads, and no other', () => {
    const declared = Object.entries(SHAPES).flatMap(([answer, shape]) =>
      shape.rules('').map(({ path, rule }) => `${answer} ${path} ${rule}`),
    );
    const tabled = ROWS.map((row) => `${row.answer} ${row.field} ${row.rule}`);
    expect(tabled.toSorted()).toEqual(declared.toSorted());
  });

  it('never puts a value into a warning: only where, and what kind of thing', () => {
    const secret = 'tok_live_SECRET_4242';
    const reading = read('paymentSettings', {
      stripe_publishable_key: secret,
      payment_gateway: secret,
      request_three_d_secure: secret,
    });
    expect(JSON.stringify(reading.drift)).not.toContain(secret);
    expect(reading.drift).toEqual([
      { field: 'stripe_account_name', found: 'missing' },
      { field: 'braintree_client_token', found: 'missing' },
      { field: 'payment_gateway', found: 'string (unusable)' },
      { field: 'request_three_d_secure', found: 'string (unusable)' },
    ]);
  });

  it('drops fields the contract does not name, so they never reach the page', () => {
    const reading = read('signup', {
      data: {
        access_token: 'a',
        deeplink_token: 'd',
        entity: { external_user_id: 'u', password_hash: 'x' },
        admin: true,
      },
      debug: { sql: 'SELECT' },
    });
    expect(reading).toEqual({
      ok: true,
      value: {
        data: { access_token: 'a', deeplink_token: 'd', entity: { external_user_id: 'u' } },
      },
      drift: [],
    });
  });

  it('reads every answer of the contract into the shape the browser is promised', () => {
    for (const call of Object.keys(PORTAL_ANSWERS) as ApiCallName[]) {
      const reading = read(call, CANONICAL_ANSWERS[call]);
      if (!reading.ok) throw new Error(`${call}: ${reading.missing}`);
      const browser = ['signup', 'socialSignIn'].includes(call)
        ? { data: { ...(reading.value as { data: object }).data, access_token: undefined } }
        : reading.value;
      expect(API_CALLS[call].response.safeParse(browser).success, call).toBe(true);
    }
  });
});
