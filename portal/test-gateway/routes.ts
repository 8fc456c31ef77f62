import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as z from 'zod';
import { logError } from '../../shared/log';
import {
  challengePath,
  type GatewayErrorBody,
  type PaymentIntentState,
  type TokenizedCard,
  type VerifyAnswer,
} from '../../shared/test-gateway-protocol';
import type { PortalBindings } from '../env';
import {
  authenticateTestPaymentIntent,
  findTestPaymentIntent,
  insertTestPaymentIntentStatement,
  type TestPaymentIntent,
} from '../store/test-payment-intents';
import {
  findTestPaymentMethod,
  insertTestPaymentMethodStatement,
  setVerificationStatement,
} from '../store/test-payment-methods';
import { intentSecretOf, newPaymentIntentId, newPaymentMethodId } from './payment-ids';
import { cardFingerprintOf, checkCard, needsAuthentication } from './test-cards';

/**
 * The test gateway's JSON API (paths and shapes in shared/test-gateway-protocol.ts): an
 * emulator of a card processor for development and tests, on PORTAL_DB. The worker mounts it at
 * /test-gateway outside production only (worker/dev/test-gateway-routes.ts). Failures answer
 * `{error:{code,message}}`, the way card processors answer.
 */

class GatewayError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const CardRequest = z.object({
  number: z.string().max(40),
  exp_month: z.coerce.number().int(),
  exp_year: z.coerce.number().int(),
  cvc: z.string().max(8),
  name: z.string().max(200).optional(),
});

const AuthenticateRequest = z.object({ outcome: z.enum(['complete', 'fail']) });

const VerifyRequest = z.object({
  nonce: z.string().min(1).max(255),
  amount: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().regex(/^\d+(\.\d{1,2})?$/)),
});

type GatewayEnv = { Bindings: PortalBindings };

export const testGatewayApi = new Hono<GatewayEnv>()
  /** Tokenizes a card: only its brand, last 4 digits and test behaviour are kept. */
  .post('/payment_methods', async (c) => {
    const card = await readBody(c, CardRequest);
    const checked = checkCard(card, new Date());
    if (!checked.ok) throw new GatewayError(402, checked.code, checked.message);
    const id = newPaymentMethodId();
    await insertTestPaymentMethodStatement(c.env.PORTAL_DB, {
      id,
      brand: checked.brand,
      last4: checked.last4,
      behaviour: checked.behaviour,
      fingerprint: await cardFingerprintOf(checked.number),
      createdAt: new Date().toISOString(),
    }).run();
    const answer: TokenizedCard = { id, brand: checked.brand, last4: checked.last4 };
    return c.json(answer);
  })
  .get('/payment_intents/:intentId', async (c) => {
    const intent = await knownIntent(c.env.PORTAL_DB, c.req.param('intentId'));
    return c.json(stateOf(intent));
  })
  /**
   * The 3-D Secure challenge's outcome. The first one stays: a second press, or a second tab,
   * answers the intent as the first decided it.
   */
  .post('/payment_intents/:intentId/authenticate', async (c) => {
    const db = c.env.PORTAL_DB;
    const { outcome } = await readBody(c, AuthenticateRequest);
    const intent = await knownIntent(db, c.req.param('intentId'));
    const status = outcome === 'complete' ? 'succeeded' : 'failed';
    const decided = await authenticateTestPaymentIntent(
      db,
      intent.id,
      status,
      new Date().toISOString(),
    );
    if (decided?.purpose === 'verify') {
      await setVerificationStatement(db, decided.paymentMethodId, decided.status).run();
    }
    return c.json(stateOf(decided ?? (await knownIntent(db, intent.id))));
  })
  /**
   * Braintree-style verifyCard (SPEC.md §4 Alternate provider with 3-D Secure): a card without
   * 3-D Secure, or one already verified, passes at once; a 3-D Secure card gets a challenge, after
   * which the same nonce counts as verified (or failed) for the direct subscription call.
   */
  .post('/verify', async (c) => {
    const db = c.env.PORTAL_DB;
    const { nonce } = await readBody(c, VerifyRequest);
    const method = await findTestPaymentMethod(db, nonce);
    if (!method)
      throw new GatewayError(404, 'resource_missing', 'This payment method is not known.');
    if (!needsAuthentication(method.behaviour) || method.verification === 'succeeded') {
      const passed: VerifyAnswer = { status: 'succeeded', nonce };
      return c.json(passed);
    }
    const intentId = newPaymentIntentId();
    await db.batch([
      insertTestPaymentIntentStatement(db, {
        id: intentId,
        secret: intentSecretOf(intentId),
        purpose: 'verify',
        paymentMethodId: nonce,
        userId: null,
        planId: null,
        subscriptionId: null,
        status: 'requires_action',
        createdAt: new Date().toISOString(),
      }),
      setVerificationStatement(db, nonce, 'requires_action'),
    ]);
    const challenge: VerifyAnswer = {
      status: 'requires_action',
      nonce,
      intentId,
      challengeUrl: challengePath(intentId),
    };
    return c.json(challenge);
  })
  .onError((error, c) => {
    if (error instanceof GatewayError)
      return gatewayError(c, error.status, error.code, error.message);
    logError('test_gateway_internal_error', {
      method: c.req.method,
      path: c.req.path,
      message: error instanceof Error ? error.message : String(error),
    });
    return gatewayError(c, 500, 'api_error', 'Internal server error.');
  });

function gatewayError(c: Context, status: ContentfulStatusCode, code: string, message: string) {
  const body: GatewayErrorBody = { error: { code, message } };
  return c.json(body, status);
}

async function readBody<S extends z.ZodType>(
  c: Context<GatewayEnv>,
  schema: S,
): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new GatewayError(400, 'invalid_request', 'The request body must be a JSON object.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new GatewayError(400, 'invalid_request', `Invalid or missing: ${fields}.`);
  }
  return parsed.data;
}

async function knownIntent(db: D1Database, id: string | undefined): Promise<TestPaymentIntent> {
  const intent = id ? await findTestPaymentIntent(db, id) : null;
  if (!intent) throw new GatewayError(404, 'resource_missing', 'This payment intent is not known.');
  return intent;
}

function stateOf(intent: TestPaymentIntent): PaymentIntentState {
  return { id: intent.id, status: intent.status };
}
