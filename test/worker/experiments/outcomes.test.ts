import { describe, expect, it } from 'vitest';
import { asDeliveries, consumer } from '../collector/consume';
import { anEvent } from '../collector/fixtures';
import {
  aBrowser,
  CHROME,
  exposureOf,
  funnel,
  NO_FLAGS,
  SAME_ORIGIN,
  startEachTestAfresh,
  totalsOf,
} from './experiment-fixtures';

/**
 * The step flags of exposed visitors: set from the visitor's own events through
 * `/e`, the queue and its consumer, once each; never from anyone else's.
 */

startEachTestAfresh();

function stepsOf(visitorId: string) {
  return {
    onboarding_start: anEvent({ event_type: 'onboarding_start', device_id: visitorId }),
    lead: anEvent({ event_type: 'lead', device_id: visitorId, user_id: 'user-1' }),
    checkout_screen_load: anEvent({ event_type: 'checkout_screen_load', device_id: visitorId }),
  };
}

describe('step flags from the visitor’s own events', () => {
  it('each step sets its flag once, and a redelivered or repeated event changes nothing', async () => {
    const { exposedVisitor, track, consume } = funnel();
    const visitor = await exposedVisitor();
    const id = visitor.visitorId() ?? '';
    const steps = stepsOf(id);

    await track(visitor, [anEvent({ device_id: id }), steps.onboarding_start]);
    await consume();
    expect(await exposureOf(id)).toMatchObject({ ...NO_FLAGS, reached_lookup: 1 });

    await track(visitor, [steps.lead, steps.checkout_screen_load]);
    const messages = await consume();
    expect(await exposureOf(id)).toMatchObject({
      reached_lookup: 1,
      signed_up: 1,
      reached_checkout: 1,
      purchased: 0,
    });

    // The queue hands the same messages over again, and the page sends new copies of a step.
    await consumer().run(asDeliveries(messages, 2));
    await track(visitor, [stepsOf(id).lead, stepsOf(id).onboarding_start]);
    await consume();
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({
      variant: 'default',
      exposed: 1,
      steps: { lookup: 1, signup: 1, checkout: 1, purchase: 0 },
    });
  });

  it('events of a visitor never exposed (skip_split, a bot) mark nothing', async () => {
    const { fetchApp, track, consume } = funnel();
    const skipper = aBrowser(fetchApp);
    await skipper.get('/?skip_split=true');
    const bot = aBrowser(fetchApp);
    await bot.get('/', { 'user-agent': 'curl/8.5.0' });
    for (const browser of [skipper, bot]) {
      await track(browser, Object.values(stepsOf(browser.visitorId() ?? '')));
    }
    await consume();
    expect(await exposureOf(skipper.visitorId())).toBeNull();
    expect((await totalsOf(1)).arms).toEqual([
      expect.objectContaining({ variant: 'default', exposed: 0, bots: 1 }),
    ]);
  });

  it('an event naming another visitor is stored as its sender’s: a forger can only mark their own row', async () => {
    const { fetchApp, exposedVisitor, track, consume } = funnel();
    const victim = await exposedVisitor();
    const forger = await exposedVisitor();
    const victimId = victim.visitorId() ?? '';
    await track(forger, Object.values(stepsOf(victimId)));
    // Without any cookie, as a script would post.
    const cookieless = await fetchApp('/e', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'user-agent': CHROME },
      body: JSON.stringify({ events: Object.values(stepsOf(victimId)) }),
    });
    expect(cookieless.status).toBe(200);
    await track(forger, [stepsOf(forger.visitorId() ?? '').lead]);
    await consume();
    expect(await exposureOf(victimId)).toMatchObject(NO_FLAGS);
    // The collector stored the steps under the forger's cookie (worker/collector/event-identity.ts).
    expect(await exposureOf(forger.visitorId())).toMatchObject({
      ...NO_FLAGS,
      reached_lookup: 1,
      signed_up: 1,
      reached_checkout: 1,
    });
  });
});
