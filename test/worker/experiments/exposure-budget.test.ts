import { describe, expect, it, vi } from 'vitest';
import { aBrowser, exposureOf, funnel, startEachTestAfresh, totalsOf } from './experiment-fixtures';

/**
 * The exposures one address may have counted a day (worker/experiments/exposure/exposure-budget.ts):
 * past the budget a page's draws are counted apart, per address; the counter unreachable, they
 * count as before.
 */

startEachTestAfresh();

const address = (ip: string) => ({ 'cf-connecting-ip': ip });

describe('the exposure budget of an address', () => {
  it('counts 30 a day from one address or /64 and the rest apart, while another address counts', async () => {
    const { fetchApp } = funnel();
    for (let load = 0; load < 32; load++) {
      expect((await aBrowser(fetchApp).get('/', address('203.0.113.7'))).status).toBe(200);
    }
    // An IPv6 /64 is one address, whatever the rest of each visitor's says: 31 hosts, one over.
    for (let host = 1; host <= 31; host++) {
      await aBrowser(fetchApp).get('/', address(`2001:db8:1:2::${host.toString(16)}`));
    }
    const neighbour = aBrowser(fetchApp);
    await neighbour.get('/', address('203.0.113.8'));
    expect(await exposureOf(neighbour.visitorId())).toMatchObject({ variant: 'default' });
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({ variant: 'default', exposed: 61, overBudget: 3 });
  });

  it('counts the exposure when the counter cannot be reached, and says so', async () => {
    const unreachable = {
      idFromName: () => {
        throw new Error('limiter down: test outage');
      },
    };
    const { fetchApp } = funnel(0.2, { RATE_LIMITER: unreachable as never });
    const errors = vi.spyOn(console, 'error');
    const visitor = aBrowser(fetchApp);
    expect((await visitor.get('/', address('203.0.113.9'))).status).toBe(200);
    await vi.waitFor(async () => expect(await exposureOf(visitor.visitorId())).not.toBeNull());
    expect(errors.mock.calls.map(([line]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({ error: 'rate_limiter_failed', rule: 'exposures_per_ip' }),
    );
  });
});
