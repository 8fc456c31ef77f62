import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING } from '../../worker/config/defaults';
import { SPRING_PAY_FLOWS, SPRING_PAYWALL } from '../fixtures/composed-paywall';
import { runAxe } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  continueAfterReceipt,
  payButton,
  payThroughChallenge,
  portalSubscriptions,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, signupField, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * A paywall a marketer composed from checkout_v3_tr's sections, in a flow, walked in Chromium
 * against the built worker with the embedded portal and the test gateway: a declined card's Try
 * again comes back to the composed paywall at its own path, the 3-D Secure card's challenge is
 * completed there, and the flow goes on from it to the upsell and success.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('content', SPRING_PAYWALL);
  await session.worker.putConfig('flows', SPRING_PAY_FLOWS);
  await session.worker.putConfig('routing', {
    ...DEFAULT_ROUTING,
    routes: [{ id: 'default', flow: 'spring_pay' }],
  });
  await session.worker.putConfig('split', {
    version: 'spring-pay',
    defaultVariant: 'default',
    variants: { default: { weight: 1, flow: 'spring_pay' } },
  });
});
afterAll(() => session?.stop());

const QUERY = '?gclid=spring';

describe('a composed paywall in a flow', () => {
  // slow: sign-up, a declined charge, then a 3-D Secure challenge and its charge, in Chromium
  it('takes a declined card back to itself, then 3-D Secure pays there and the flow goes on', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.goto(`/signup${QUERY}`);
    await interactive(page);
    await submitEmail(page, uniqueEmail('composed-paywall'));
    await page.waitForURL((url) => url.pathname === '/spring_paywall' && url.search === QUERY, {
      timeout: PATIENCE_MS,
    });
    await interactive(page);
    const userId = (await signupField(page, 'userId')) as string;
    // Its own arrangement: what people say above the plans, one heading.
    await page.getByRole('region', { name: 'What people say' }).waitFor();
    expect(await page.locator('h1').count()).toBe(1);
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);

    await typeTestCard(page, '4000 0000 0000 0002');
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
    await interactive(page);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL((url) => url.pathname === '/spring_paywall' && url.search === QUERY);
    await interactive(page);

    await payThroughChallenge(page);
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private' && url.search === QUERY, {
      timeout: PATIENCE_MS,
    });
    await interactive(page);
    await page.getByRole('button', { name: 'No, thanks', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/success' && url.search === QUERY);
    // One plan bought: the declined attempt charged nothing.
    const active = (await portalSubscriptions(session, userId)).filter(
      (row) => row.status === 'active',
    );
    expect(active).toEqual([{ plan_id: 'monthly_7d_intro_usd', status: 'active' }]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
