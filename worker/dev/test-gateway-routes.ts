import { Hono } from 'hono';
import { type ScriptFaultCall, takeScriptFault } from '../../portal/faults';
import { findTestPaymentIntent } from '../../portal/store/test-payment-intents';
import { testGatewayApi } from '../../portal/test-gateway/routes';
import { sameOrigin } from '../api/same-origin';
import { isDevelopment } from '../environment';
import { jsonBodyLimit, jsonOnly } from '../http/api-json';
import type { OtherPagesEnv } from '../request/envs';
import { PLAIN_PAGE_HEADERS } from '../routes/plain-page';
import { cardFramePage, challengePage, unknownChallengePage } from './test-gateway-pages';

/** The script faults by the provider the card frame plays (`?provider=`, set by the checkout). */
const SCRIPT_FAULTS: Readonly<Record<string, ScriptFaultCall>> = {
  stripe: 'script-stripe',
  braintree: 'script-braintree',
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The switched-on fault of the provider's script the frame stands in for (docs/payments.md, "A
 * failing provider routed around"), used up by this load; null when it loads as usual.
 */
function scriptFaultOf(db: D1Database, provider: string | undefined) {
  const call =
    provider !== undefined && Object.hasOwn(SCRIPT_FAULTS, provider)
      ? SCRIPT_FAULTS[provider]
      : undefined;
  return call === undefined ? Promise.resolve(null) : takeScriptFault(db, call);
}

/**
 * /test-gateway/*: the test gateway, an emulator of a third-party card processor with
 * the behaviour of Stripe's documented test cards, for development and tests. Mounted only by the
 * development entry (DevKit.testGatewayRoutes), and even there answered only when ENVIRONMENT is
 * exactly 'development' and the embedded portal's database is bound (fail closed).
 */
export function testGatewayRoutes(): Hono<OtherPagesEnv> {
  return new Hono<OtherPagesEnv>()
    .use(async function testGatewayOnlyInDevelopment(c, next) {
      if (!isDevelopment(c.env) || !c.env.PORTAL_DB) return c.notFound();
      await next();
    })
    .on('POST', '*', sameOrigin(), jsonOnly(), jsonBodyLimit())
    .get('/card-frame', async (c) => {
      const fault = await scriptFaultOf(c.env.PORTAL_DB!, c.req.query('provider'));
      if (fault !== null && fault.delayMs > 0) await sleep(fault.delayMs);
      const page = cardFramePage(c.get('nonce'), c.req.query('lang') ?? '', fault?.delayMs !== 0);
      return c.html(page, 200, PLAIN_PAGE_HEADERS);
    })
    .get('/challenge/:intentId', async (c) => {
      const intentId = c.req.param('intentId');
      const intent = await findTestPaymentIntent(c.env.PORTAL_DB!, intentId);
      return intent
        ? c.html(challengePage(c.get('nonce'), intent.id), 200, PLAIN_PAGE_HEADERS)
        : c.html(unknownChallengePage(), 404, PLAIN_PAGE_HEADERS);
    })
    .route('/', testGatewayApi);
}
