import {
  type ApiCallName,
  PaymentSettingsResponse,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { logLine } from '../../shared/log';
import { afterAnswer } from '../after-answer';
import type { ApiRefusal } from '../http/api-error';
import { configuredPaymentProviders } from '../middleware/payment-providers';
import type { CallVisit } from '../middleware/visit';
import { chargeProviderOf, chargeSignalOf, type RelayedCharge } from './charge-signal';
import { preferredProvider, usableProviders } from './checkout-routing';
import { recordProviderCall, routeByHealth } from './health-reader';
import { type ProviderPin, readPin, writePin } from './provider-pin';

/**
 * The provider health's one step in a relayed call (worker/api/call-handler.ts): before it is
 * forwarded, a charge is told its provider (`payment_provider`, docs/product-api.md); once
 * answered, the payment settings get the routed provider (./checkout-routing.ts) and a charge's
 * answer counts toward its provider's health (off the visitor's path).
 */

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
): Promise<ProviderStep> {
  const charged = chargeProviderOf(call);
  if (call !== 'paymentSettings' && charged === null) {
    return { ok: true, outgoing: (body) => body, after: async (relayed) => bodyOf(relayed) };
  }
  const pin = call === 'paymentSettings' ? await readPin(visit.cookies) : null;
  return {
    ok: true,
    outgoing: (body) =>
      charged !== null && NEW_CHARGES.has(call)
        ? { ...(body as SubscriptionRequest), payment_provider: charged }
        : body,
    after: async (relayed) => {
      if (call === 'paymentSettings') return routedSettings(visit, pin, relayed, now);
      if (charged !== null) learnFromCharge(visit, { call, charged, relayed, now });
      return bodyOf(relayed);
    },
  };
}

function bodyOf(relayed: RelayedCharge): unknown {
  return relayed.answered ? relayed.body : null;
}

/** The charge's answer as its provider's health takes it. */
function learnFromCharge(
  visit: CallVisit,
  learnt: { call: ApiCallName; charged: ChargeProvider; relayed: RelayedCharge; now: number },
): void {
  const { call, charged, relayed, now } = learnt;
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
    await writePin(visit.cookies, { provider });
  }
  visit.vars.logFields.payment_provider = provider;
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
