import { DurableObject } from 'cloudflare:workers';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { describeError, logError, logWarning } from '../../shared/log';
import type { Bindings } from '../env';
import { withTimeout } from '../rate-limits/rate-limit-gate';
import { type CheckoutRoute, otherProvider, routeCheckout } from './checkout-routing';
import { HEALTHY, type HealthState, type HealthView, recordCall, viewOf } from './health-window';

const STATE_KEY = 'state';

/** What recording one call answers: the provider's view after it, and whether it turned. */
export interface RecordedCall {
  view: HealthView;
  changed: boolean;
}

/**
 * One card provider's technical health (./health-window.ts), one Durable Object per provider
 * (`idFromName('provider:stripe')`), so every isolate and location judges it from the same calls.
 * A few hundred bytes: twelve buckets and the breaker's state. The worker's clock is passed in,
 * so a test's fixed clock decides the window as in production the request's does.
 */
export class ProviderHealth extends DurableObject {
  private async stored(): Promise<HealthState> {
    return (await this.ctx.storage.get<HealthState>(STATE_KEY)) ?? HEALTHY;
  }

  /** Counts one call of `provider`: `failed` when it failed technically. */
  async record(provider: ChargeProvider, failed: boolean, now: number): Promise<RecordedCall> {
    const before = await this.stored();
    const after = recordCall(before, failed, now);
    await this.ctx.storage.put(STATE_KEY, after);
    return { view: viewOf(provider, after, now), changed: before.failing !== after.failing };
  }

  /** The provider's view at `now`, for the routing of new checkouts. */
  async view(provider: ChargeProvider, now: number): Promise<HealthView> {
    return viewOf(provider, await this.stored(), now);
  }
}

/**
 * The worker's side of the providers' health (the object above): each isolate keeps the
 * views it last read or wrote for HEALTH_CACHE_MS, so a run of checkouts costs one Durable
 * Object request per provider and isolate every few seconds, not one each (docs/performance.md,
 * "Provider health"). Neither reading nor recording ever fails a visitor's request: a health
 * object that does not answer within HEALTH_TIMEOUT_MS counts as healthy (the checkout keeps
 * the product API's own provider) and is logged.
 */

/** How long an isolate trusts a view it read: an outage is routed around within this. */
const HEALTH_CACHE_MS = 5_000;
const HEALTH_TIMEOUT_MS = 1_000;

const kept = new Map<ChargeProvider, { view: HealthView; at: number }>();

/** Forgets what this isolate read (tests, which share one isolate between cases). */
export function forgetProviderHealth(): void {
  kept.clear();
}

function healthObject(env: Bindings, provider: ChargeProvider) {
  return env.PROVIDER_HEALTH.get(env.PROVIDER_HEALTH.idFromName(`provider:${provider}`));
}

function healthyView(provider: ChargeProvider): HealthView {
  return { provider, failing: false, share: 1, calls: 0, failures: 0 };
}

/** `provider`'s health as this isolate last saw it, read again once HEALTH_CACHE_MS old. */
export async function providerHealth(
  env: Bindings,
  provider: ChargeProvider,
  request: { now: number; requestId: string },
): Promise<HealthView> {
  const seen = kept.get(provider);
  if (seen && request.now - seen.at < HEALTH_CACHE_MS && request.now >= seen.at) return seen.view;
  try {
    const view = await withTimeout(
      healthObject(env, provider).view(provider, request.now),
      HEALTH_TIMEOUT_MS,
    );
    kept.set(provider, { view, at: request.now });
    return view;
  } catch (error) {
    logError('provider_health_unread', {
      id: request.requestId,
      provider,
      detail: describeError(error),
    });
    return seen?.view ?? healthyView(provider);
  }
}

/**
 * Counts one call of `provider` (a charge answered, timed out or failed; a script that did not
 * load) and logs `provider_health_changed` when it turned the provider failing or healthy.
 */
export async function recordProviderCall(
  env: Bindings,
  provider: ChargeProvider,
  call: { failed: boolean; source: string },
  request: { now: number; requestId: string },
): Promise<void> {
  try {
    const recorded = await withTimeout(
      healthObject(env, provider).record(provider, call.failed, request.now),
      HEALTH_TIMEOUT_MS,
    );
    kept.set(provider, { view: recorded.view, at: request.now });
    if (recorded.changed) {
      // An outage is an error line (alerted on); the recovery a warning that closes it.
      const log = recorded.view.failing ? logError : logWarning;
      log('provider_health_changed', {
        id: request.requestId,
        provider,
        failing: recorded.view.failing,
        source: call.source,
      });
    }
  } catch (error) {
    logError('provider_health_unrecorded', {
      id: request.requestId,
      provider,
      failed: call.failed,
      detail: describeError(error),
    });
  }
}

/**
 * The probes' draws: this isolate's checkouts routed while a provider fails, counted from a
 * random start and spread by a stride coprime with 100 (the n-th draw is n × 37 mod 100, in
 * hundredths), so exactly one in a hundred falls under a 1% probe share, ten in a hundred under
 * 10% and never more than 19 checkouts apart, however few checkouts an isolate routes. A draw
 * per visitor would keep the share only on average: 3 probes of 200 as often as 1.
 */
let probeCount = Math.floor(Math.random() * 100);

function nextProbeDraw(): number {
  probeCount = (probeCount + 1) % 100;
  return ((probeCount * 37) % 100) / 100;
}

/**
 * The route of a new checkout from the providers' health (./checkout-routing.ts): the preferred
 * provider's view, and the other's only when the preferred is failing.
 */
export async function routeByHealth(
  env: Bindings,
  checkout: { preferred: ChargeProvider; usable: readonly ChargeProvider[] },
  request: { now: number; requestId: string },
): Promise<CheckoutRoute> {
  const { preferred, usable } = checkout;
  const views = new Map<ChargeProvider, HealthView>();
  const preferredView = await providerHealth(env, preferred, request);
  views.set(preferred, preferredView);
  const other = otherProvider(preferred);
  if (preferredView.failing && usable.includes(other)) {
    views.set(other, await providerHealth(env, other, request));
  }
  return routeCheckout({
    preferred,
    usable,
    health: (provider) => views.get(provider) ?? healthyView(provider),
    draw: () => nextProbeDraw(),
  });
}
