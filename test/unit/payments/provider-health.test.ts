import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChargeProvider } from '../../../shared/charge-outcome';
import { routeCheckout, usableProviders } from '../../../worker/provider-health/checkout-routing';
import {
  COOL_DOWN_MS,
  HALF_OPEN_PROBE_SHARE,
  HEALTH_WINDOW_MS,
  HEALTHY,
  type HealthState,
  type HealthView,
  MIN_SAMPLE,
  OPEN_AT,
  PROBE_SHARE,
  RECOVERY_STREAK,
  recordCall,
  viewOf,
} from '../../../worker/provider-health/health-window';
import {
  chargeSignalOf,
  gateCharge,
  otherProviderOffered,
  type ProviderPin,
  pinAfterAnswer,
} from '../../../worker/provider-routing/provider-pin';

const T0 = Date.parse('2026-11-28T03:00:00Z');

function calls(state: HealthState, outcomes: readonly boolean[], at = T0): HealthState {
  return outcomes.reduce((kept, failed) => recordCall(kept, failed, at), state);
}

const failures = (n: number) => Array.from({ length: n }, () => true);
const successes = (n: number) => Array.from({ length: n }, () => false);

describe('a provider judged by its technical failures (docs/payments.md)', () => {
  it('turns failing only with MIN_SAMPLE calls in the window and OPEN_AT of them failed', () => {
    expect(calls(HEALTHY, failures(MIN_SAMPLE - 1)).failing).toBe(false);
    expect(calls(HEALTHY, failures(MIN_SAMPLE)).failing).toBe(true);
    const failed = Math.ceil(MIN_SAMPLE * OPEN_AT);
    expect(
      calls(HEALTHY, [...successes(MIN_SAMPLE - failed + 1), ...failures(failed - 1)]).failing,
    ).toBe(false);
    expect(calls(HEALTHY, [...successes(MIN_SAMPLE - failed), ...failures(failed)]).failing).toBe(
      true,
    );
  });

  it('forgets calls older than the window', () => {
    const old = calls(HEALTHY, failures(MIN_SAMPLE - 1));
    expect(recordCall(old, true, T0 + HEALTH_WINDOW_MS).failing).toBe(false);
    expect(recordCall(old, true, T0 + HEALTH_WINDOW_MS - 10_000).failing).toBe(true);
  });

  it('probes a failing provider with PROBE_SHARE, more once it has cooled down, back after a streak', () => {
    const failing = calls(HEALTHY, failures(MIN_SAMPLE));
    expect(viewOf('stripe', failing, T0).share).toBe(PROBE_SHARE);
    expect(viewOf('stripe', failing, T0 + COOL_DOWN_MS).share).toBe(HALF_OPEN_PROBE_SHARE);
    // A failure while failing starts the cool-down again and the streak from zero.
    const refailed = calls(failing, [...successes(RECOVERY_STREAK - 1), true], T0 + COOL_DOWN_MS);
    expect(viewOf('stripe', refailed, T0 + COOL_DOWN_MS).share).toBe(PROBE_SHARE);
    const back = calls(refailed, successes(RECOVERY_STREAK), T0 + 2 * COOL_DOWN_MS);
    expect(back).toEqual(HEALTHY);
    // Back with an empty window: one failure right after does not turn it failing again.
    expect(recordCall(back, true, T0 + 2 * COOL_DOWN_MS).failing).toBe(false);
  });
});

describe('a failing provider is back only after its cool-down and probes', () => {
  const failing = calls(HEALTHY, failures(MIN_SAMPLE));

  it('counts no success during the cool-down, however many come', () => {
    // The fault ends 2 s after the provider turned failing: pinned visitors' resends go through.
    const early = calls(failing, successes(10 * RECOVERY_STREAK), T0 + 2_000);
    expect(early.failing).toBe(true);
    expect(early.streak).toBe(0);
    // After the cool-down, RECOVERY_STREAK successes bring it back.
    const probed = calls(early, successes(RECOVERY_STREAK - 1), T0 + COOL_DOWN_MS);
    expect(probed.failing).toBe(true);
    expect(recordCall(probed, false, T0 + COOL_DOWN_MS)).toEqual(HEALTHY);
  });

  it('stays failing through an outage that stops and starts again within the cool-down', () => {
    let state = failing;
    // On for 60 s (a failure a second), off for 40 s (a success a second), on again for 60 s.
    for (let second = 1; second <= 160; second++) {
      const on = second <= 60 || second > 100;
      state = recordCall(state, on, T0 + second * 1000);
      expect(state.failing, `second ${second}`).toBe(true);
    }
  });

  it('never turns healthy before COOL_DOWN_MS without a failure and RECOVERY_STREAK successes after it', () => {
    const call = fc.record({ gapMs: fc.integer({ min: 0, max: 30_000 }), failed: fc.boolean() });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 120 }), (stream) => {
        let state = failing;
        let now = T0;
        let lastFailure = T0;
        let successesSinceCooled = 0;
        for (const { gapMs, failed } of stream) {
          now += gapMs;
          const before = state;
          state = recordCall(state, failed, now);
          if (!before.failing) return;
          if (failed) {
            lastFailure = now;
            successesSinceCooled = 0;
          } else if (now - lastFailure >= COOL_DOWN_MS) successesSinceCooled += 1;
          if (!state.failing) {
            expect(now - lastFailure).toBeGreaterThanOrEqual(COOL_DOWN_MS);
            expect(successesSinceCooled).toBe(RECOVERY_STREAK);
          }
        }
      }),
    );
  });
});

const view = (provider: ChargeProvider, failing: boolean): HealthView => ({
  provider,
  failing,
  share: failing ? PROBE_SHARE : 1,
  calls: 0,
  failures: 0,
});

describe('routing a new checkout', () => {
  const both = ['stripe', 'braintree'] as const;
  const route = (stripeFails: boolean, braintreeFails: boolean, draw = 0.5, usable = both) =>
    routeCheckout({
      preferred: 'stripe',
      usable,
      health: (provider) => view(provider, provider === 'stripe' ? stripeFails : braintreeFails),
      draw: () => draw,
    });

  it('keeps the preferred provider while it is healthy', () => {
    expect(route(false, true)).toEqual({ provider: 'stripe', reason: 'preferred' });
  });

  it('moves to the other while the preferred fails, but for its probes', () => {
    expect(route(true, false)).toEqual({ provider: 'braintree', reason: 'rerouted' });
    expect(route(true, false, PROBE_SHARE / 2)).toEqual({ provider: 'stripe', reason: 'probe' });
  });

  it('stays when the other is failing too or not configured', () => {
    expect(route(true, true).reason).toBe('no_alternative');
    expect(route(true, false, 0.5, ['stripe'] as never).reason).toBe('no_alternative');
  });

  it('counts a provider usable only when listed and keyed (the test gateway plays both)', () => {
    const settings = {
      stripe_publishable_key: 'pk_test',
      stripe_account_name: null,
      braintree_client_token: null,
      payment_gateway: 'stripe' as const,
      request_three_d_secure: false,
    };
    expect(usableProviders(settings, ['stripe', 'braintree'])).toEqual(['stripe']);
    expect(usableProviders({ ...settings, payment_gateway: 'test' }, ['braintree'])).toEqual([
      'braintree',
    ]);
  });
});

describe('the other provider after a decline (the worker decides)', () => {
  const pin: ProviderPin = { provider: 'stripe', cascade: 'none' };
  const usable = ['stripe', 'braintree'] as const;
  const polled = (declineCode: string) =>
    chargeSignalOf('pollingResult', {
      answered: true,
      status: 200,
      body: { data: { result_data: { status: 'failed', decline_code: declineCode } } },
    });

  it('offers it once after do not honour or a processing error', () => {
    for (const code of ['do_not_honor', 'generic_decline', 'processing_error']) {
      const offered = pinAfterAnswer(pin, 'stripe', polled(code), usable);
      expect(offered, code).toEqual({ provider: 'stripe', cascade: 'offered' });
      expect(otherProviderOffered(offered)).toBe('braintree');
    }
    const used: ProviderPin = { provider: 'braintree', cascade: 'used' };
    expect(pinAfterAnswer(used, 'braintree', polled('do_not_honor'), usable)).toEqual(used);
  });

  it('never after a hard decline, a fraud block or a 3-D Secure challenge', () => {
    for (const code of ['expired_card', 'stolen_card', 'fraudulent', 'authentication_required']) {
      const closed = pinAfterAnswer(pin, 'stripe', polled(code), usable);
      expect(closed, code).toEqual({ provider: 'stripe', cascade: 'closed' });
      expect(otherProviderOffered(closed)).toBeNull();
    }
    const challenged = chargeSignalOf('pollingResult', {
      answered: true,
      status: 200,
      body: { data: { result_data: { status: 'requires_action', payment_intent_secret: 's' } } },
    });
    expect(pinAfterAnswer(pin, 'stripe', challenged, usable).cascade).toBe('closed');
    // Nor after insufficient funds: another provider does not add money to the card.
    expect(pinAfterAnswer(pin, 'stripe', polled('insufficient_funds'), usable)).toEqual(pin);
  });

  it('refuses a charge on the other provider once the move is spent or closed', () => {
    expect(gateCharge(pin, 'braintree')).toEqual({ ok: true, pin });
    expect(gateCharge({ ...pin, cascade: 'offered' }, 'braintree')).toEqual({
      ok: true,
      pin: { provider: 'braintree', cascade: 'used' },
    });
    expect(gateCharge({ provider: 'braintree', cascade: 'used' }, 'stripe')).toEqual({ ok: false });
    expect(gateCharge({ ...pin, cascade: 'closed' }, 'braintree')).toEqual({ ok: false });
    expect(gateCharge({ ...pin, cascade: 'closed' }, 'stripe').ok).toBe(true);
  });

  it("reads Braintree's 3000s, a 5xx and no answer as the provider's failure, not a decline", () => {
    const direct = (message: string) =>
      chargeSignalOf('directSubscription', {
        answered: true,
        status: 422,
        body: { errors: { messages: [message] }, decline_code: 'processing_error' },
      });
    expect(direct('3000 Processor Network Unavailable - Try Again')).toEqual({ kind: 'technical' });
    expect(direct('2000 Do Not Honor').kind).toBe('declined');
    expect(
      chargeSignalOf('pollingSubscription', { answered: true, status: 500, body: {} }),
    ).toEqual({
      kind: 'technical',
    });
    expect(
      chargeSignalOf('directSubscription', { answered: false, refusal: 'portal_timeout' }),
    ).toEqual({
      kind: 'technical',
    });
    expect(
      chargeSignalOf('pollingSubscription', { answered: false, refusal: 'rate_limited' }),
    ).toEqual({
      kind: 'none',
    });
  });
});
