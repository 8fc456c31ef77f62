import { describe, expect, it } from 'vitest';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { readExperimentRows } from '../../../worker/experiments/store/experiment-stores';
import { asDeliveries, consumer } from '../collector/consume';
import { anEvent } from '../collector/fixtures';
import {
  aBrowser,
  CHROME,
  exposureOf,
  funnel,
  NO_FLAGS,
  SAME_ORIGIN,
  shardRows,
  startEachTestAfresh,
  stores,
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

describe('payment declines by class, from the visitor’s own browser', () => {
  const declined = (visitorId: string, declineClass?: string) =>
    anEvent({
      event_type: 'subs_purchase_failed',
      device_id: visitorId,
      event_properties: {
        screen_name: 'checkout_v3_tr',
        ...(declineClass === undefined ? {} : { decline_class: declineClass }),
      },
    });

  it('counts each visitor once per class; a forged class, a failure without one or another’s event counts in none', async () => {
    const { fetchApp, exposedVisitor, track, consume } = funnel();
    const secure = await exposedVisitor();
    const funds = await exposedVisitor();
    const forger = await exposedVisitor();
    const failed = await exposedVisitor();
    const victim = await exposedVisitor();
    const idOf = (browser: typeof secure) => browser.visitorId() ?? '';
    // Two 3-D Secure failures, then a card without funds: two classes, each once.
    await track(secure, [
      declined(idOf(secure), 'authentication_failed'),
      declined(idOf(secure), 'authentication_failed'),
    ]);
    await track(secure, [declined(idOf(secure), 'insufficient_funds')]);
    await track(funds, [declined(idOf(funds), 'insufficient_funds')]);
    await track(forger, [
      declined(idOf(forger), 'toString'),
      declined(idOf(forger), "fraud_suspected' OR 1=1"),
      declined(idOf(forger), 'FRAUD_SUSPECTED'),
    ]);
    // A technical failure (outcome 'failed') names no class.
    await track(failed, [declined(idOf(failed))]);
    // Posted without the victim's cookie: the collector keeps it as no one's.
    const cookieless = await fetchApp('/e', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'user-agent': CHROME },
      body: JSON.stringify({ events: [declined(idOf(victim), 'fraud_suspected')] }),
    });
    expect(cookieless.status).toBe(200);
    const messages = await consume();
    await consumer().run(asDeliveries(messages, 2));

    const { rows } = await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, 1);
    expect(rows.declines).toEqual([
      { variant: 'default', decline_class: 'authentication_failed', visitors: 1 },
      { variant: 'default', decline_class: 'insufficient_funds', visitors: 2 },
    ]);
    // The total still counts every declined visitor once, the classless and forged ones too.
    expect(rows.arms[0]).toMatchObject({ exposed: 5, declined: 4 });
    const bits = await shardRows<{ visitor_id: string; decline_classes: number }>(
      'SELECT visitor_id, decline_classes FROM xp_exposures WHERE decline_classes > 0',
    );
    expect(bits.map((row) => row.visitor_id).sort()).toEqual([idOf(funds), idOf(secure)].sort());
  });
});
