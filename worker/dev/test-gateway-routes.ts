import { Hono } from 'hono';
import { findTestPaymentIntent } from '../../portal/store/test-payment-intents';
import { testGatewayApi } from '../../portal/test-gateway/routes';
import { sameOrigin } from '../api/same-origin';
import { isDevelopment } from '../environment';
import { jsonBodyLimit, jsonOnly } from '../http/json-body';
import type { OtherPagesEnv } from '../middleware/envs';
import { PLAIN_PAGE_HEADERS } from '../routes/plain-page';
import { cardFramePage, challengePage, unknownChallengePage } from './test-gateway-pages';

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
    .get('/card-frame', (c) =>
      c.html(cardFramePage(c.get('nonce'), c.req.query('lang') ?? ''), 200, PLAIN_PAGE_HEADERS),
    )
    .get('/challenge/:intentId', async (c) => {
      const intentId = c.req.param('intentId');
      const intent = await findTestPaymentIntent(c.env.PORTAL_DB!, intentId);
      return intent
        ? c.html(challengePage(c.get('nonce'), intent.id), 200, PLAIN_PAGE_HEADERS)
        : c.html(unknownChallengePage(), 404, PLAIN_PAGE_HEADERS);
    })
    .route('/', testGatewayApi);
}
