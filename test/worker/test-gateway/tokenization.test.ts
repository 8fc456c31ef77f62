import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { TEST_GATEWAY_PATHS } from '../../../shared/test-gateway-protocol';
import { freshApp } from '../fetch-app';
import { CARDS, cardBody, fetchWorker, postFromPage } from './gateway-client';

const tokenizeCard = (body: unknown, fetchApp = fetchWorker) =>
  postFromPage(TEST_GATEWAY_PATHS.paymentMethods, body, fetchApp);

describe('POST /test-gateway/payment_methods', () => {
  it('tokenizes a valid card into a tpm_ id with its brand and last 4 digits', async () => {
    const response = await tokenizeCard(cardBody(CARDS.succeeds));
    expect(response.status).toBe(200);
    const card = (await response.json()) as { id: string };
    expect(card).toEqual({
      id: expect.stringMatching(/^tpm_[0-9a-f]{24}$/),
      brand: 'visa',
      last4: '4242',
    });
  });

  it('never stores the full card number, only id, brand, last 4 and behaviour', async () => {
    const response = await tokenizeCard(cardBody(CARDS.alwaysAuthenticate, { cvc: '987' }));
    const { id } = (await response.json()) as { id: string };
    const row = await env.PORTAL_DB.prepare('SELECT * FROM test_payment_methods WHERE id = ?')
      .bind(id)
      .first();
    // Every column, exactly: none of them can hold the card number or the CVC. (A search of the
    // row's text for '987' failed whenever the random id or the fingerprint held those digits.)
    expect(row).toEqual({
      id,
      brand: 'visa',
      last4: '3184',
      behaviour: 'requires_authentication',
      verification: null,
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(JSON.stringify(row)).not.toContain('4000002760003184');
  });

  it('accepts any future expiry and any CVC', async () => {
    const far = new Date().getUTCFullYear() + 9;
    const response = await tokenizeCard(
      cardBody(CARDS.succeeds, { exp_month: 1, exp_year: far % 100, cvc: '000' }),
    );
    expect(response.status).toBe(200);
  });

  it.each([
    [
      'a number failing the Luhn check',
      { number: '4242 4242 4242 4241' },
      'incorrect_number',
      'Your card number is incorrect.',
    ],
    [
      'an expiry in the past',
      { exp_month: 1, exp_year: 2020 },
      'invalid_expiry_year',
      "Your card's expiration date is invalid.",
    ],
    [
      'a month that does not exist',
      { exp_month: 13 },
      'invalid_expiry_month',
      "Your card's expiration month is invalid.",
    ],
    [
      'a CVC that is not 3 digits',
      { cvc: '12a' },
      'invalid_cvc',
      "Your card's security code is invalid.",
    ],
  ])('answers 402 for %s', async (_, overrides, code, message) => {
    const response = await tokenizeCard(cardBody(CARDS.succeeds, overrides));
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: { code, message } });
  });

  it('refuses a cross-site POST (403) and stores nothing', async () => {
    const before = await env.PORTAL_DB.prepare(
      'SELECT COUNT(*) AS n FROM test_payment_methods',
    ).first('n');
    const response = await fetchWorker(TEST_GATEWAY_PATHS.paymentMethods, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify(cardBody(CARDS.succeeds)),
    });
    expect(response.status).toBe(403);
    expect(
      await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM test_payment_methods').first('n'),
    ).toBe(before);
  });
});

describe('the test gateway in production', () => {
  const production = freshApp({}, { ENVIRONMENT: 'production' });

  it.each([
    ['POST', TEST_GATEWAY_PATHS.paymentMethods],
    ['GET', TEST_GATEWAY_PATHS.cardFrame],
    ['GET', '/test-gateway/challenge/tpi_000000000000000000000000'],
    ['GET', '/test-gateway/payment_intents/tpi_000000000000000000000000'],
    ['POST', TEST_GATEWAY_PATHS.verify],
  ])('answers 404 to %s %s', async (method, path) => {
    const response =
      method === 'POST'
        ? await postFromPage(path, cardBody(CARDS.succeeds), production)
        : await production(path);
    expect(response.status).toBe(404);
  });
});
