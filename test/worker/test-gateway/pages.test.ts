import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { switchFaultOn } from '../../../portal/faults';
import { TEST_GATEWAY_PATHS } from '../../../shared/test-gateway-protocol';
import { signUp } from '../portal/portal-client';
import { CARDS, charge, chargeByPolling, fetchWorker, tokenize } from './gateway-client';

function nonceOf(response: Response): string {
  const policy = response.headers.get('content-security-policy') ?? '';
  return /'nonce-([^']+)'/.exec(policy)?.[1] ?? 'no nonce';
}

describe('GET /test-gateway/card-frame', () => {
  it('is a page our own pages may frame, running its script under the CSP nonce', async () => {
    const response = await fetchWorker(TEST_GATEWAY_PATHS.cardFrame);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain(
      `<script type="module" nonce="${nonceOf(response)}" src="/assets/test-gateway-card-frame-`,
    );
  });

  it('has labelled card fields with their autofill hints', async () => {
    const html = await (await fetchWorker(TEST_GATEWAY_PATHS.cardFrame)).text();
    for (const [id, autocomplete] of [
      ['card-number', 'cc-number'],
      ['card-expiry', 'cc-exp'],
      ['card-cvc', 'cc-csc'],
    ]) {
      expect(html).toContain(`<label for="${id}">`);
      expect(html).toMatch(new RegExp(`<input id="${id}"[^>]* autocomplete="${autocomplete}"`));
    }
  });

  it("is in the checkout's language and direction, a language not ours being English", async () => {
    const arabic = await (await fetchWorker(`${TEST_GATEWAY_PATHS.cardFrame}?lang=ar`)).text();
    expect(arabic).toContain('<html lang="ar">');
    expect(arabic).toContain('<form novalidate aria-label="Card details" dir="rtl">');
    const unknown = await (await fetchWorker(`${TEST_GATEWAY_PATHS.cardFrame}?lang=x"y`)).text();
    expect(unknown).toContain('<html lang="en">');
    expect(unknown).toContain('dir="ltr"');
  });

  it("gives each field a message line, hidden until the field's check says something", async () => {
    const html = await (await fetchWorker(TEST_GATEWAY_PATHS.cardFrame)).text();
    for (const id of ['card-number', 'card-expiry', 'card-cvc']) {
      expect(html).toContain(`<p id="${id}-error" class="error" hidden></p>`);
    }
  });
});

describe("the card frame as a provider's script that is slow or never comes (script-* faults)", () => {
  const SCRIPT = 'src="/assets/test-gateway-card-frame-';
  /** The frame as the checkout asks for it when the test gateway plays `provider`. */
  const load = async (provider: string) => {
    const started = Date.now();
    const html = await (
      await fetchWorker(`${TEST_GATEWAY_PATHS.cardFrame}?lang=en&provider=${provider}`)
    ).text();
    return { html, tookMs: Date.now() - started };
  };

  it("never: the fields come without their script, once per switched-on load, that provider's only", async () => {
    await switchFaultOn(env.PORTAL_DB, 'script-stripe', 1);
    // Braintree's part is not switched, nor is a frame that names no provider.
    expect((await load('braintree')).html).toContain(SCRIPT);
    expect((await load('')).html).toContain(SCRIPT);
    const never = await load('stripe');
    expect(never.html).toContain('<input id="card-number"');
    expect(never.html).not.toContain('<script');
    expect((await load('stripe')).html).toContain(SCRIPT);
  });

  it('late: the page with its script, answered after the delay', async () => {
    await switchFaultOn(env.PORTAL_DB, 'script-braintree', 1, { delayMs: 400 });
    const late = await load('braintree');
    expect(late.tookMs).toBeGreaterThanOrEqual(400);
    expect(late.html).toContain(SCRIPT);
    const next = await load('braintree');
    expect(next.tookMs).toBeLessThan(400);
  });
});

describe('GET /test-gateway/challenge/{intentId}', () => {
  it('offers to complete or fail the authentication of a known intent', async () => {
    const { accessToken } = await signUp();
    const { result } = await chargeByPolling(
      accessToken,
      charge(await tokenize(CARDS.alwaysAuthenticate)),
    );
    const response = await fetchWorker(`/test-gateway/challenge/${result.payment_intent_id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    const html = await response.text();
    expect(html).toContain(`data-intent-id="${result.payment_intent_id}"`);
    // Served disabled: the page's script enables them once it listens for the press.
    expect(html).toContain('data-outcome="complete" disabled>Complete authentication</button>');
    expect(html).toContain('data-outcome="fail" disabled>Fail authentication</button>');
  });

  it('answers 404 for an intent it never made', async () => {
    const response = await fetchWorker('/test-gateway/challenge/tpi_000000000000000000000000');
    expect(response.status).toBe(404);
  });
});

describe('framing outside production', () => {
  it('lets funnel pages frame our origin but still forbids framing them', async () => {
    const response = await fetchWorker('/');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/frame-src 'self' /);
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("lets the gateway's own pages be framed by our pages only", async () => {
    const response = await fetchWorker('/test-gateway/card-frame');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toContain("frame-ancestors 'none'");
  });
});
