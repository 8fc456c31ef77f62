import {
  type ApiCallName,
  PaymentSettingsResponse,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { logLine, logWarning } from '../../shared/log';
import { type ApiRefusal, refusal } from '../http/api-json';
import { configuredPaymentProviders } from '../payment-providers';
import {
  otherProvider,
  preferredProvider,
  usableProviders,
} from '../provider-health/checkout-routing';
import {
  providerHealth,
  recordProviderCall,
  routeByHealth,
} from '../provider-health/provider-health';
import { afterAnswer } from '../request/after-answer';
import type { CallVisit } from '../request/visit';
import {
  chargeProviderOf,
  chargeSignalOf,
  gateCharge,
  otherProviderOffered,
  type ProviderPin,
  pinAfterAnswer,
  pinAfterProviderFailure,
  type RelayedCharge,
  readPin,
  writePin,
} from './provider-pin';
import { type CloseAnswer, closeDue, type KeptAttempt } from './stuck-attempt';

/**
 * The provider health's one step in a relayed call (worker/api/call-handler.ts): before it is
 * forwarded, a charge is held to the visitor's pin (./provider-pin.ts) and told its provider
 * (`payment_provider`, docs/product-api.md); once answered, the payment settings get the routed
 * provider (../provider-health/checkout-routing.ts) and a charge's answer counts toward its provider's health
 * (off the visitor's path) and moves the pin's offer. A charge that resends an attempt its
 * provider keeps failing closes it first (./stuck-attempt.ts) and, closed unpaid, answers the
 * page with the other provider's offer instead of sending it again.
 */

/**
 * The attempt a charge call resends, as the purchase's ledger keeps it, and the product API's
 * close of it (worker/checkout/charge-steps.ts): the provider step reads and asks, the ledger's room
 * keeps the attempts.
 */
export interface StuckAttemptPort {
  /** The attempt this call belongs to, or null when it is a new one (or cannot be read). */
  kept(): Promise<KeptAttempt | null>;
  /** Asks the product API to close it; closed, the ledger and the governor keep it unpaid. */
  close(): Promise<CloseAnswer>;
}

export type ProviderStep =
  | { ok: false; refusal: ApiRefusal }
  | {
      ok: true;
      /** The body as it goes to the product API. */
      outgoing: (body: unknown) => unknown;
      /** The answer's body for the browser, after what it taught. */
      after: (relayed: RelayedCharge) => Promise<unknown>;
    };

const NEW_CHARGES: ReadonlySet<ApiCallName> = new Set([
  'pollingSubscription',
  'directSubscription',
]);

const cardProviders = (visit: CallVisit): ChargeProvider[] =>
  configuredPaymentProviders(visit.env).filter(
    (provider): provider is ChargeProvider => provider !== 'paypal',
  );

/** The provider step of `call` (a pass-through for calls that are neither settings nor charges). */
export async function checkoutProviderStep(
  visit: CallVisit,
  call: ApiCallName,
  now: number,
  stuck?: StuckAttemptPort,
): Promise<ProviderStep> {
  const charged = chargeProviderOf(call);
  if (call !== 'paymentSettings' && charged === null) {
    return { ok: true, outgoing: (body) => body, after: async (relayed) => bodyOf(relayed) };
  }
  let pin = await readPin(visit.cookies);
  if (charged !== null && NEW_CHARGES.has(call)) {
    const gate = gateCharge(pin, charged);
    if (!gate.ok) {
      logWarning('provider_not_offered', { id: visit.requestId, provider: charged });
      return { ok: false, refusal: refusal('provider_not_offered') };
    }
    if (gate.pin !== pin && gate.pin !== null) await writePin(visit.cookies, gate.pin);
    pin = gate.pin;
    const failedOver = stuck ? await closeIfStuck(visit, { charged, pin, now, stuck }) : null;
    if (failedOver) return { ok: false, refusal: failedOver };
  }
  return {
    ok: true,
    outgoing: (body) =>
      charged !== null && NEW_CHARGES.has(call)
        ? { ...(body as SubscriptionRequest), payment_provider: charged }
        : body,
    after: async (relayed) => {
      if (call === 'paymentSettings') return routedSettings(visit, pin, relayed, now);
      if (charged !== null) await learnFromCharge(visit, { call, charged, pin, relayed, now });
      return bodyOf(relayed);
    },
  };
}

function bodyOf(relayed: RelayedCharge): unknown {
  return relayed.answered ? relayed.body : null;
}

/** The charge's answer as its provider's health and the visitor's pin take it. */
async function learnFromCharge(
  visit: CallVisit,
  learnt: {
    call: ApiCallName;
    charged: ChargeProvider;
    pin: ProviderPin | null;
    relayed: RelayedCharge;
    now: number;
  },
): Promise<void> {
  const { call, charged, pin, relayed, now } = learnt;
  const signal = chargeSignalOf(call, relayed);
  // A charge POST is one call of its provider. A polling result adds one only when the charge
  // ended in a technical code: its own 5xx is the product API's, asked again and again while it
  // lasts, and would count one visitor's wait many times.
  const counts = NEW_CHARGES.has(call)
    ? signal.kind !== 'none'
    : signal.kind === 'technical' && relayed.answered && relayed.status === 200;
  if (counts) {
    const request = { now, requestId: visit.requestId };
    const sample = { failed: signal.kind === 'technical', source: call };
    afterAnswer(visit, recordProviderCall(visit.env, charged, sample, request));
  }
  if (pin === null) return;
  let next = pinAfterAnswer(pin, charged, signal, cardProviders(visit));
  if (next.provider === pin.provider && next.cascade === pin.cascade) return;
  // No offer of a provider that is failing itself: the visitor would meet its outage instead.
  if (next.cascade === 'offered') {
    const other = await providerHealth(visit.env, otherProvider(next.provider), {
      now,
      requestId: visit.requestId,
    });
    if (other.failing) next = pin;
  }
  if (next === pin) return;
  await writePin(visit.cookies, next);
  if (next.cascade === 'offered') {
    logLine({
      event: 'provider_cascade_offered',
      id: visit.requestId,
      from: next.provider,
      to: otherProvider(next.provider),
    });
  }
}

/**
 * A resend of an attempt its provider keeps failing (./stuck-attempt.ts closeDue): the product
 * API is asked to close it. Closed, nothing was charged: the pin offers the other provider when
 * it may (./provider-pin.ts pinAfterProviderFailure) and the page is answered so
 * (`provider_failed_other_offered`, else `provider_failed_not_charged`), nothing sent. Charged or
 * not known, null: the resend goes on as any other, and the ledger still refuses a new attempt.
 */
async function closeIfStuck(
  visit: CallVisit,
  stuckCharge: {
    charged: ChargeProvider;
    pin: ProviderPin | null;
    now: number;
    stuck: StuckAttemptPort;
  },
): Promise<ApiRefusal | null> {
  const { charged, pin, now, stuck } = stuckCharge;
  const attempt = await stuck.kept();
  if (attempt === null || attempt.provider !== charged) return null;
  const request = { now, requestId: visit.requestId };
  if (!closeDue(attempt, await providerHealth(visit.env, charged, request))) return null;
  const answer = await stuck.close();
  const { waitedMs } = attempt;
  logWarning('charge_attempt_closed', { id: visit.requestId, provider: charged, answer, waitedMs });
  if (answer !== 'closed') return null;
  const other = otherProvider(charged);
  const next = pinAfterProviderFailure(pin, charged, {
    // The card is typed again on the other provider's form: a checkout's as it was, an upsell's
    // in place of the card on file, which stays with the provider that keeps it.
    usable: cardProviders(visit).includes(other),
    failing: (await providerHealth(visit.env, other, request)).failing,
  });
  if (next !== pin && next !== null) {
    await writePin(visit.cookies, next);
    logLine({
      event: 'provider_cascade_offered',
      id: visit.requestId,
      from: charged,
      to: other,
      reason: 'provider_failing',
      waitedMs,
    });
  }
  return refusal(
    otherProviderOffered(next) ? 'provider_failed_other_offered' : 'provider_failed_not_charged',
  );
}

/**
 * The payment settings with the provider this checkout pays with (`payment_provider`): the pin's
 * when one was given, else routed now (and pinned) from the providers' health.
 */
async function routedSettings(
  visit: CallVisit,
  pin: ProviderPin | null,
  relayed: RelayedCharge,
  now: number,
): Promise<unknown> {
  if (!relayed.answered || relayed.status !== 200) return bodyOf(relayed);
  const parsed = PaymentSettingsResponse.safeParse(relayed.body);
  if (!parsed.success) return relayed.body;
  const settings = parsed.data;
  const usable = usableProviders(settings, cardProviders(visit));
  let provider = pin?.provider;
  if (provider === undefined || !usable.includes(provider)) {
    provider = await routeNewCheckout(visit, settings, usable, now);
    await writePin(visit.cookies, { provider, cascade: 'none' });
  }
  visit.note('payment_provider', provider);
  return { ...(relayed.body as object), payment_provider: provider };
}

async function routeNewCheckout(
  visit: CallVisit,
  settings: PaymentSettingsResponse,
  usable: readonly ChargeProvider[],
  now: number,
): Promise<ChargeProvider> {
  const preferred = preferredProvider(settings);
  const route = await routeByHealth(
    visit.env,
    { preferred, usable },
    { now, requestId: visit.requestId },
  );
  logLine({
    event: 'provider_routed',
    id: visit.requestId,
    provider: route.provider,
    reason: route.reason,
    preferred,
  });
  return route.provider;
}
