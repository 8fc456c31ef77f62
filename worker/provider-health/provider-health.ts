import { DurableObject } from 'cloudflare:workers';
import type { ChargeProvider } from '../../shared/charge-outcome';
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
