import { describe, expect, it, vi } from 'vitest';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { readExperimentRows } from '../../../worker/experiments/store/experiment-stores';
import { signPreview } from '../../../worker/preview/preview';
import { previewHolder } from '../../fixtures/preview-holder';
import { asDeliveries, consumer } from '../collector/consume';
import { anEvent, NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
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
 * The step flags of exposed visitors: set from the steps the worker saw them take
 * (worker/collector/seen-steps.ts) through the queue and its consumer, once each; never from a
 * page's events, which anyone can post under an id they minted.
 */

startEachTestAfresh();

const PREVIEW_KEY = 'preview-key-of-this-test';

/** The step events a page's tracker posts to `/e`: what a bot forges. */
function stepsOf(visitorId: string) {
  return {
    onboarding_start: anEvent({ event_type: 'onboarding_start', device_id: visitorId }),
    lead: anEvent({ event_type: 'lead', device_id: visitorId, user_id: 'user-1' }),
    checkout_screen_load: anEvent({ event_type: 'checkout_screen_load', device_id: visitorId }),
  };
}

describe('step flags from the steps the worker saw', () => {
  it('each step sets its flag once, and a redelivered or repeated one changes nothing', async () => {
    const { exposedVisitor, steps, consume } = funnel();
    const visitor = await exposedVisitor();
    const id = visitor.visitorId() ?? '';

    await steps.lookUp(visitor);
    await consume();
    expect(await exposureOf(id)).toMatchObject({ ...NO_FLAGS, reached_lookup: 1 });

    await steps.signUp(visitor);
    await steps.openCheckout(visitor);
    const messages = await consume();
    expect(messages.map(({ source, event, only }) => [source, event.event_type, only])).toEqual([
      ['server', 'lead', ['experiment']],
      ['server', 'checkout_screen_load', ['experiment']],
    ]);
    expect(await exposureOf(id)).toMatchObject({
      reached_lookup: 1,
      signed_up: 1,
      reached_checkout: 1,
      purchased: 0,
    });

    // The queue hands the same messages over again, and the visitor looks up and pays again.
    await consumer().run(asDeliveries(messages, 2));
    await steps.lookUp(visitor, '+14155550199');
    await steps.openCheckout(visitor);
    await consume();
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({
      variant: 'default',
      exposed: 1,
      steps: { lookup: 1, signup: 1, checkout: 1, purchase: 0 },
    });
  });

  it('a page’s own step events decide nothing, yet still reach the analytics', async () => {
    const { fetchApp, exposedVisitor, track, consume } = funnel();
    const visitor = await exposedVisitor();
    const id = visitor.visitorId() ?? '';
    await track(visitor, Object.values(stepsOf(id)));
    // Without any cookie, as a script would post, naming the visitor.
    const cookieless = await fetchApp('/e', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'user-agent': CHROME },
      body: JSON.stringify({ events: Object.values(stepsOf(id)) }),
    });
    expect(cookieless.status).toBe(200);
    const messages = await consume();
    expect(messages.filter((message) => message.source === 'browser')).toHaveLength(6);
    expect(await exposureOf(id)).toMatchObject(NO_FLAGS);
    expect((await totalsOf(1)).arms[0]).toMatchObject({
      exposed: 1,
      steps: { lookup: 0, signup: 0, checkout: 0, purchase: 0 },
    });
  });

  it('a checkout counts only for a visitor signed in here; a refused sign-up counts nothing', async () => {
    const { exposedVisitor, steps, consume } = funnel();
    const first = await exposedVisitor();
    await steps.openCheckout(first);
    await consume();
    expect(await exposureOf(first.visitorId())).toMatchObject(NO_FLAGS);

    // The product API refuses an address already taken: no one was signed in.
    const email = `taken-${crypto.randomUUID()}@example.test`;
    const signUp = (browser: typeof first) =>
      browser.request('/api/signup', {
        method: 'POST',
        headers: SAME_ORIGIN,
        body: JSON.stringify({ registration_source: 'email', email }),
      });
    expect((await signUp(first)).status).toBe(200);
    const second = await exposedVisitor();
    expect((await signUp(second)).status).toBeGreaterThanOrEqual(400);
    await steps.openCheckout(second);
    await steps.openCheckout(first);
    await consume();
    expect(await exposureOf(first.visitorId())).toMatchObject({
      ...NO_FLAGS,
      signed_up: 1,
      reached_checkout: 1,
    });
    expect(await exposureOf(second.visitorId())).toMatchObject(NO_FLAGS);
  });

  it('steps of a visitor never exposed (skip_split, a bot) mark nothing', async () => {
    const { fetchApp, steps, consume } = funnel();
    const skipper = aBrowser(fetchApp);
    await skipper.get('/?skip_split=true');
    const bot = aBrowser(fetchApp);
    await bot.get('/', { 'user-agent': 'curl/8.5.0' });
    await steps.lookUp(skipper);
    await consume();
    expect(await exposureOf(skipper.visitorId())).toBeNull();
    expect((await totalsOf(1)).arms).toEqual([
      expect.objectContaining({ variant: 'default', exposed: 0, bots: 1 }),
    ]);
  });

  it('a queue that refuses a step loses that step only, and says so', async () => {
    const refusing = recordingQueue({ failCalls: [0] });
    const { exposedVisitor, steps } = funnel(0.2, { EVENTS_QUEUE: refusing.queue });
    const errors = vi.spyOn(console, 'error');
    const visitor = await exposedVisitor();
    await steps.lookUp(visitor);
    expect(errors.mock.calls.map(([line]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({ error: 'step_not_queued', step: 'onboarding_start' }),
    );
    // The next one is queued.
    await steps.signUp(visitor);
    expect(refusing.events.map(({ event }) => event.event_type)).toEqual(['lead']);
  });

  it('a marketer’s preview takes no step, however far it walks', async () => {
    const { exposedVisitor, steps, consume } = funnel(0.2, { CONSOLE_PREVIEW_KEY: PREVIEW_KEY });
    // Exposed as a visitor first, so a step counted for them would show in the arm.
    const marketer = await exposedVisitor();
    const id = marketer.visitorId() ?? '';
    const expiry = Math.floor(Math.max(NOW, Date.now()) / 1000) + 600;
    marketer.cookies.set(
      'gf_preview',
      await signPreview(PREVIEW_KEY, 'default', expiry, previewHolder(id)),
    );
    await steps.lookUp(marketer);
    await steps.signUp(marketer);
    await steps.openCheckout(marketer);
    expect(await consume()).toEqual([]);
    expect(await exposureOf(id)).toMatchObject(NO_FLAGS);
  });

  it('the bot probe: fresh ids from one address, page loads and forged steps move no step, and 30 exposures a day count', async () => {
    const { fetchApp, track, consume } = funnel(0.7);
    const address = { 'cf-connecting-ip': '203.0.113.66' };
    for (let load = 0; load < 32; load++) {
      const bot = aBrowser(fetchApp);
      expect((await bot.get('/', address)).status).toBe(200);
      const id = bot.visitorId() ?? '';
      await track(bot, Object.values(stepsOf(id)));
    }
    await consume();
    const arms = (await totalsOf(1)).arms;
    // The address's day's budget counts 30 exposures; the other 2 are counted apart.
    expect(arms.find((arm) => arm.variant === 'lp17')).toMatchObject({
      exposed: 30,
      overBudget: 2,
      steps: { lookup: 0, signup: 0, checkout: 0, purchase: 0 },
    });
  });
});

describe('payment declines by class, as the worker read them in the charge answers', () => {
  /** A page's own report of a failed charge: what a forger can post for any arm. */
  const pageDecline = (visitorId: string, declineClass?: string) =>
    anEvent({
      event_type: 'subs_purchase_failed',
      device_id: visitorId,
      event_properties: {
        screen_name: 'checkout_v3_tr',
        ...(declineClass === undefined ? {} : { decline_class: declineClass }),
      },
    });

  it('counts each visitor once per class from the provider’s answers; no page’s event counts', async () => {
    const { fetchApp, exposedVisitor, track, consume } = funnel(0.2, {
      PORTAL_POLLING_DELAY_MS: '0',
    });
    /** A visitor exposed on the first screen, then signed up at the checkout. */
    async function buyer(ip: string) {
      const visitor = checkoutVisitor({ fetchApp, ip });
      expect((await visitor.call('/', undefined, { 'user-agent': CHROME })).status).toBe(200);
      await visitor.signUp();
      return visitor;
    }
    const twice = await buyer('198.51.100.1');
    const funds = await buyer('198.51.100.2');
    // Insufficient funds twice (its result polled twice, too), then an expired card.
    const first = await twice.subscribe(await twice.tokenize(CARDS.insufficientFunds));
    expect(await twice.poll(first, 2)).toMatchObject([{ status: 'failed' }, { status: 'failed' }]);
    expect((await twice.pay(CARDS.insufficientFunds)).result?.status).toBe('failed');
    expect((await twice.pay(CARDS.expired)).result?.status).toBe('failed');
    expect((await funds.pay(CARDS.insufficientFunds)).result?.status).toBe('failed');

    // An exposed visitor who posts declines of every kind from their own page, and one who
    // posts another's: the collector keeps both, the experiments count neither.
    const forger = await exposedVisitor();
    const victim = await exposedVisitor();
    const forgerId = forger.visitorId() ?? '';
    await track(forger, [
      pageDecline(forgerId, 'fraud_suspected'),
      pageDecline(forgerId, 'insufficient_funds'),
      pageDecline(forgerId),
    ]);
    await track(forger, [pageDecline(victim.visitorId() ?? '', 'card_invalid')]);
    const messages = await consume();
    expect(messages.filter((m) => m.event.event_type === 'subs_purchase_failed')).toHaveLength(4);
    await consumer().run(asDeliveries(messages, 2));

    const { rows } = await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, 1);
    expect(rows.declines).toEqual([
      { variant: 'default', decline_class: 'card_invalid', visitors: 1 },
      { variant: 'default', decline_class: 'insufficient_funds', visitors: 2 },
    ]);
    expect(rows.arms[0]).toMatchObject({ exposed: 4, declined: 2 });
    const bits = await shardRows<{ visitor_id: string; decline_classes: number }>(
      'SELECT visitor_id, decline_classes FROM xp_exposures WHERE decline_classes > 0',
    );
    expect(bits.map((row) => row.visitor_id).sort()).toEqual(
      [funds.visitorId, twice.visitorId].sort(),
    );
  });

  it('counts no decline of a marketer’s preview', async () => {
    const { fetchApp } = funnel(0.2, {
      PORTAL_POLLING_DELAY_MS: '0',
      CONSOLE_PREVIEW_KEY: PREVIEW_KEY,
    });
    // Exposed as a visitor first, so a decline counted for them would show in the arm.
    const marketer = checkoutVisitor({ fetchApp, ip: '198.51.100.3' });
    expect((await marketer.call('/', undefined, { 'user-agent': CHROME })).status).toBe(200);
    const expiry = Math.floor(Math.max(NOW, Date.now()) / 1000) + 600;
    marketer.cookies.set(
      'gf_preview',
      await signPreview(PREVIEW_KEY, 'default', expiry, previewHolder(marketer.visitorId)),
    );
    await marketer.signUp();
    expect((await marketer.pay(CARDS.insufficientFunds)).result?.status).toBe('failed');
    const { rows } = await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, 1);
    expect(rows.arms[0]).toMatchObject({ exposed: 1, declined: 0 });
    expect(rows.declines).toEqual([]);
  });

  it('counts the decline of a visitor who copied a marketer’s preview cookie', async () => {
    const { fetchApp } = funnel(0.2, {
      PORTAL_POLLING_DELAY_MS: '0',
      CONSOLE_PREVIEW_KEY: PREVIEW_KEY,
    });
    const marketer = checkoutVisitor({ fetchApp, ip: '198.51.100.4' });
    const expiry = Math.floor(Math.max(NOW, Date.now()) / 1000) + 600;
    const token = await signPreview(
      PREVIEW_KEY,
      'default',
      expiry,
      previewHolder(marketer.visitorId),
    );
    const copier = checkoutVisitor({ fetchApp, ip: '198.51.100.5' });
    copier.cookies.set('gf_preview', token);
    // Their page is no preview: they are exposed, and their decline is theirs to count.
    expect((await copier.call('/', undefined, { 'user-agent': CHROME })).status).toBe(200);
    await copier.signUp();
    expect((await copier.pay(CARDS.insufficientFunds)).result?.status).toBe('failed');
    const { rows } = await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, 1);
    expect(rows.arms[0]).toMatchObject({ exposed: 1, declined: 1 });
  });
});
