import type { Handler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ShapeDrift } from '../../shared/api/answer-fields';
import {
  API_CALLS,
  type ApiCall,
  type ApiCallName,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import { apiPath } from '../../shared/api/paths';
import { logError, logWarning } from '../../shared/log';
import { type ChargeStepWatch, runCharge, settleCharge } from '../charge-pipeline/charge-pipeline';
import {
  type CardFingerprintSource,
  type CardIdentity,
  chargeAttemptOf,
  chargedCardOf,
  isChargeCall,
  nonceOf,
  orderOf,
  withChargedPrice,
} from '../checkout/charge-call';
import { type CheckoutCharge, checkoutCharge } from '../checkout/charge-steps';
import {
  mainPurchaseKeeper,
  offerEndedForCharge,
  offerRefusal,
  renewalConsentGate,
} from '../checkout/offer';
import { callSighting, queueSeenStep, type SeenStep } from '../collector/seen-steps';
import {
  type ApiRefusal,
  apiJson,
  prepareBody,
  readIdempotencyKey,
  readJsonBody,
  readPathParams,
  refusal,
  refuse,
  stampsVisitor,
} from '../http/api-json';
import {
  type BrowserAnswer,
  browserAnswerOf,
  type PortalFetch,
  sendToPortal,
} from '../portal-client/portal-call';
import { checkoutProviderStep } from '../provider-routing/checkout-provider';
import type { PollingCharge } from '../purchases/after-charge';
import { AFTER_CHARGE } from '../purchases/after-charge';
import { pollingAccess } from '../purchases/charge-owner';
import { rateLimitRefusal } from '../rate-limits/rate-limit-gate';
import type { ApiEnv } from '../request/envs';
import { keptAnswers } from '../request/kept-answers';
import { sessionHeldHere } from '../request/signed-in-user';
import { type CallVisit, callVisitOf } from '../request/visit';
import { checkGoogleCredential } from '../session/google-credential';
import type { GoogleKeys } from '../session/google-id-token';
import { clearSessionToken, setBuyerEmail, setSessionToken } from '../session/session-cookie';

export interface ApiDependencies {
  /** Stands in for the portal transport (tests: a portal that is down, slow or broken). */
  portalFetch?: PortalFetch;
  googleKeys: GoogleKeys;
  /** Wall clock in milliseconds, for the expiry of Google tokens and recorded purchases. */
  now: () => number;
  /** Where a charge's card fingerprint comes from, for the per-card charge limit. */
  cardFingerprint: CardFingerprintSource;
  /** Told each charge pipeline step as it runs (tests only). */
  watchCharge?: ChargeStepWatch;
}

/** What a call needs before it may be forwarded, or the refusal that ends it. */
type Prepared =
  | { ok: true; path: string; body: unknown; idempotencyKey: string | null }
  | { ok: false; refusal: ApiRefusal };

async function prepare(
  visit: CallVisit,
  name: ApiCallName,
  call: ApiCall,
  posted: () => Promise<unknown>,
): Promise<Prepared> {
  const params = readPathParams(call.path, visit.params);
  if (!params.ok) {
    visit.note('detail', `invalid path parameter ${params.param}`);
    return params;
  }
  const idempotency = readIdempotencyKey(
    call.method === 'POST'
      ? (visit.request.headers.get('idempotency-key') ?? undefined)
      : undefined,
  );
  if (!idempotency.ok) {
    visit.note('detail', 'invalid Idempotency-Key');
    return idempotency;
  }
  let body: unknown = null;
  if (call.request) {
    const reading = prepareBody(name, call.request, await posted(), {
      visitorId: visit.visitorId,
      landingType: visit.arms.variant.landingType,
      // A quiz's answers go with the sign-up, from the visit's signed cookie alone.
      answers:
        stampsVisitor(name) && visit.config.content.questions
          ? await keptAnswers(visit.cookies)
          : undefined,
    });
    if (!reading.ok) {
      visit.note('detail', reading.detail);
      return reading;
    }
    body = reading.body;
  }
  return {
    ok: true,
    path: apiPath(call.path, params.values),
    body,
    idempotencyKey: idempotency.key,
  };
}

/** How a call through the worker ended: refused by the worker, or the answer for the browser. */
export type Forwarded =
  | { ok: false; refusal: ApiRefusal }
  | { ok: true; status: ContentfulStatusCode; body: unknown };

/**
 * One §7 call through the worker: check what the browser sent (`posted`, the request body), apply
 * the limits and the Google check, forward to the portal with the bearer token from the session
 * cookie, and turn whatever comes back into the answer the islands read. Sets the session
 * cookie when the portal signs the visitor in. The `/api` routes answer it as JSON; a form the
 * worker takes without script (worker/routes/screens/posted-forms.ts) makes its page of it.
 */
export async function forwardCall(
  visit: CallVisit,
  name: ApiCallName,
  deps: ApiDependencies,
  posted: () => Promise<unknown>,
): Promise<Forwarded> {
  const call: ApiCall = API_CALLS[name];
  visit.note('call', name);
  const signedIn = await bearerOf(visit, name, call);
  if (!signedIn.ok) return refused(signedIn.refusal);
  const { bearer } = signedIn;

  const prepared = await prepare(visit, name, call, posted);
  if (!prepared.ok) return refused(prepared.refusal);
  const admitted = await admit(visit, name, prepared.body, deps);
  if (!admitted.ok) return refused(admitted.refusal);
  const { buyerEmail, polled, order, phone, card } = admitted;
  const consented = isChargeCall(name)
    ? await renewalConsentGate(
        {
          country: visit.country,
          ...order,
          requestId: visit.requestId,
          now: deps.now(),
          offerEnded: () =>
            offerEndedForCharge(
              visit,
              visit.arms.experiments.shape.countdown !== false,
              deps.now(),
            ),
        },
        prepared.body,
      )
    : prepared;
  if (!consented.ok) return refused(consented.refusal);
  const charging = isChargeCall(name);
  // Priced from the catalogue as consented, before the pipeline (docs/payments.md).
  const priced = charging
    ? withChargedPrice(consented.body as SubscriptionRequest, order.planId)
    : consented.body;
  const { id: attempt, key } = await chargeAttemptOf(
    visit.requestId,
    prepared.idempotencyKey,
    charging ? nonceOf(prepared.body) : null,
  );
  const charge = {
    attempt,
    card: card?.fingerprint ?? null,
    network: card?.network ?? 'unknown',
    testCard: card?.testCard ?? false,
    order,
    polled,
  };
  const checkout = await checkoutCharge(visit, name, charge, {
    ...deps,
    bearer,
    afterCharge: AFTER_CHARGE,
  });
  // Built when asked: a charge's purchase id and provider are known once its steps admitted it.
  const ask = () => {
    const outgoing = charging
      ? { ...prepared, body: checkout.outgoing(priced), idempotencyKey: key }
      : prepared;
    return askPortal(visit, { name, call, prepared: outgoing, bearer, phone }, deps);
  };
  const exchanged = await exchange(visit, name, checkout, ask, deps);
  if (!exchanged.ok) return refused(exchanged.refusal);
  const { upstreamStatus, answer } = exchanged;
  const replied = checkout.reply() ?? { ok: true, body: answer.body };
  if (!replied.ok) return refused(replied.refusal);
  const { body } = replied;
  if (answer.accessToken !== null) {
    setSessionToken(visit.answer, answer.accessToken, answer.userId ?? undefined);
    if (buyerEmail !== null) await setBuyerEmail(visit.answer, buyerEmail);
  }
  if (bearer !== null && upstreamStatus === 401) clearSessionToken(visit.answer);
  const step = stepSeenIn(name, answer);
  if (step !== null) queueSeenStep(callSighting(visit), step, deps.now());
  return { ok: true, status: answer.status, body };
}

/**
 * The funnel step a relayed call shows the visitor took (../collector/seen-steps.ts): a phone
 * lookup the product API answered, a sign-up or Google sign-in that signed them in.
 */
function stepSeenIn(
  name: ApiCallName,
  answer: { status: number; accessToken: string | null },
): SeenStep | null {
  if (name === 'phoneInfo') return answer.status < 300 ? 'onboarding_start' : null;
  if (name === 'signup' || name === 'socialSignIn') {
    return answer.accessToken !== null ? 'lead' : null;
  }
  return null;
}

/**
 * The session token a call carries (SPEC.md §6: only bearer calls carry it; the polling result
 * sends none even when the visitor is signed in), or the refusal of a bearer call without one or
 * with one kept from another visitor id (a changed `userUuid`, a copied cookie): signed out, so
 * the visitor signs in again as who they are and pays in their account's arms.
 */
async function bearerOf(
  visit: CallVisit,
  name: ApiCallName,
  call: ApiCall,
): Promise<{ ok: true; bearer: string | null } | { ok: false; refusal: ApiRefusal }> {
  if (call.auth !== 'bearer') return { ok: true, bearer: null };
  const bearer = visit.sessionToken;
  if (bearer === null) return { ok: false, refusal: refusal('not_signed_in') };
  if ((await sessionHeldHere(visit.cookies, bearer)) === 'not_held') {
    logWarning('session_not_held', { id: visit.requestId, call: name });
    clearSessionToken(visit.answer);
    return { ok: false, refusal: refusal('not_signed_in') };
  }
  return { ok: true, bearer };
}

/** What the product API answered, as askPortal reads it, or the refusal standing for it. */
type Asked = Awaited<ReturnType<typeof askPortal>>;

/**
 * Asks the product API: a charge through the whole charge pipeline (worker/charge-pipeline/),
 * a polling result with the pipeline's steps settled by its answer, the payment settings routed
 * by the provider's health; any other call as it is.
 */
async function exchange(
  visit: CallVisit,
  name: ApiCallName,
  checkout: CheckoutCharge,
  ask: () => Promise<Asked>,
  deps: ApiDependencies,
): Promise<Asked> {
  if (isChargeCall(name)) {
    const run = await runCharge(checkout.steps, checkout.classify, ask, deps.watchCharge);
    return run.ok ? run.answer : { ok: false, refusal: run.refusal };
  }
  if (name === 'pollingResult') {
    const asked = await ask();
    await settleCharge(checkout.steps, checkout.classify, asked, deps.watchCharge);
    return asked;
  }
  if (name !== 'paymentSettings') return ask();
  const provider = await checkoutProviderStep(visit, name, deps.now());
  if (!provider.ok) return { ok: false, refusal: provider.refusal };
  const asked = await ask();
  const routed = await provider.after(
    asked.ok
      ? { answered: true, status: asked.answer.status, body: asked.answer.body }
      : { answered: false, refusal: asked.refusal.code },
  );
  return asked.ok ? { ...asked, answer: { ...asked.answer, body: routed } } : asked;
}

/** What the checks before the product API found the call may do, or their refusal. */
type Admitted =
  | {
      ok: true;
      buyerEmail: string | null;
      polled: PollingCharge | null;
      order: { planId: string | null; coupon: string | null };
      phone: string | null;
      card: CardIdentity | null;
    }
  | { ok: false; refusal: ApiRefusal };

/**
 * Whose email signs up, whose charge a polling id is, whether the visitor is offered what they
 * buy, and the rate limits: all before the product API is called.
 */
async function admit(
  visit: CallVisit,
  name: ApiCallName,
  body: unknown,
  deps: ApiDependencies,
): Promise<Admitted> {
  // Whose email signs up: the form's, or the one Google verified (the ad networks' match key).
  let buyerEmail = name === 'signup' ? (body as { email: string }).email : null;
  if (name === 'socialSignIn') {
    const token = (body as { access_token: string }).access_token;
    const request = {
      clientId: visit.env.GOOGLE_CLIENT_ID,
      id: visit.requestId,
      note: visit.note,
    };
    const google = await checkGoogleCredential(request, token, {
      keys: deps.googleKeys,
      now: deps.now,
    });
    if (!google.ok) return google;
    buyerEmail = google.identity.email;
  }

  // Whose charge a polling id is, and what the visitor may buy: both before the product API.
  let polled: PollingCharge | null = null;
  if (name === 'pollingResult') {
    const store = { namespace: visit.env.RATE_LIMITER, requestId: visit.requestId };
    const access = await pollingAccess(store, visit.params.pollingId ?? '', {
      visitorId: visit.visitorId,
      userId: visit.signedInUser,
    });
    if (!access.ok) return access;
    polled = access.memo;
  }
  const order = orderOf(visit.params.planId, name, body);
  if (isChargeCall(name)) {
    const asker = {
      experiments: visit.arms.experiments,
      flow: visit.arms.flow,
      config: visit.config,
      country: visit.country,
      routeId: visit.route.id,
      referer: visit.request.headers.get('referer') ?? undefined,
      requestUrl: visit.request.url,
      mainPurchase: mainPurchaseKeeper(visit.env, visit.sessionToken, visit.requestId),
      offerEnded: await offerEndedForCharge(
        visit,
        visit.arms.experiments.shape.countdown !== false,
        deps.now(),
      ),
    };
    const refusedOffer = await offerRefusal(asker, order.planId ?? '', order.coupon);
    if (refusedOffer) return { ok: false, refusal: refusedOffer };
  }

  const phone = name === 'phoneInfo' ? (visit.params.phone ?? null) : null;
  const card = await chargedCardOf(visit.env, name, body, deps.cardFingerprint);
  // A charge's limits are the charge pipeline's first step (../checkout/charge-steps.ts).
  const limited = isChargeCall(name) ? null : await rateLimitRefusal(visit.asker, name, { phone });
  if (limited) return { ok: false, refusal: limited };
  return { ok: true, buyerEmail, polled, order, phone, card };
}

/** The call as it goes to the product API. */
interface Outgoing {
  name: ApiCallName;
  call: ApiCall;
  prepared: Extract<Prepared, { ok: true }>;
  bearer: string | null;
  phone: string | null;
}

/**
 * Forwards the call to the product API and reads its answer as the browser gets it; what went
 * wrong on the way is logged, and answered as the call's refusal.
 */
async function askPortal(
  visit: CallVisit,
  { name, call, prepared, bearer, phone }: Outgoing,
  deps: ApiDependencies,
): Promise<
  | { ok: true; answer: Extract<BrowserAnswer, { ok: true }>; upstreamStatus: number | null }
  | { ok: false; refusal: ApiRefusal }
> {
  const sent = await sendToPortal(
    visit,
    {
      name,
      call,
      path: prepared.path,
      body: prepared.body,
      bearer,
      idempotencyKey: prepared.idempotencyKey,
    },
    deps.portalFetch,
  );
  if (!sent.ok) return { ok: false, refusal: refusal(sent.code) };
  const { outcome } = sent;
  const upstreamStatus = outcome.kind === 'answered' ? outcome.status : null;
  visit.note('portal_status', upstreamStatus);
  visit.note('portal_ms', outcome.ms);

  const answer = browserAnswerOf(name, outcome, phone === null ? {} : { phone });
  logShapeDrift(visit.requestId, name, answer.drift);
  if (!answer.ok) {
    logError(answer.refusal.code, {
      id: visit.requestId,
      call: name,
      upstream_status: upstreamStatus,
      ms: outcome.ms,
      detail: outcome.kind === 'unavailable' ? outcome.detail : undefined,
      missing: answer.missing,
      portal_message: answer.rawText,
    });
    return answer;
  }
  if (answer.errorCode !== null) visit.note('error', answer.errorCode);
  if (upstreamStatus !== null && upstreamStatus >= 500) {
    // The portal failed and said so: the browser gets the call's SPEC.md §8 text
    // (worker/portal-client/portal-refusal.ts), and ops must still see the outage, in the portal's
    // own words, as an error line, not only as a request line's status.
    logError('portal_error', {
      id: visit.requestId,
      call: name,
      upstream_status: upstreamStatus,
      portal_code: answer.errorCode,
      portal_message: answer.rawText,
      ms: outcome.ms,
    });
  } else if (answer.rawText !== undefined) {
    // A refusal about the request: its words go on the request's log line only.
    visit.note('portal_message', answer.rawText);
  }
  return { ok: true, answer, upstreamStatus };
}

/**
 * One `portal_shape` warning per field the product API sent in another form than ours and the
 * worker took anyway (shared/api/answer-fields.ts): where, and what kind of thing was there,
 * never its value (it may be a token or a person's data). Ops see the API drift; visitors don't.
 */
function logShapeDrift(id: string, call: ApiCallName, drift: readonly ShapeDrift[]): void {
  for (const { field, found } of drift) logWarning('portal_shape', { id, call, field, found });
}

function refused(refusal: ApiRefusal): Forwarded {
  return { ok: false, refusal };
}

/** The `/api` route of a §7 call: the browser's JSON in, JSON out whichever way it ends. */
export function callHandler(name: ApiCallName, deps: ApiDependencies): Handler<ApiEnv> {
  return async function apiCallHandler(c) {
    const forwarded = await forwardCall(callVisitOf(c), name, deps, () => readJsonBody(c.req.raw));
    return forwarded.ok
      ? apiJson(c, forwarded.status, forwarded.body)
      : refuse(c, forwarded.refusal);
  };
}
