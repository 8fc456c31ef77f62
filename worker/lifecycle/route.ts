import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ShapeDrift } from '../../shared/api/answer-fields';
import {
  LIFECYCLE_SIGNATURE_HEADER,
  type LifecycleAnswer,
  type RecoverLinkAnswer,
} from '../../shared/api/lifecycle';
import { describeError, logError, logWarning } from '../../shared/log';
import type { Answer } from '../http/answer';
import { lifecycleKey } from '../portal-client/lifecycle-key';
import type { LifecycleEnv } from '../request/envs';
import { type Handled, handledOf } from '../request/visit';
import { MAX_SUBSCRIPTION_ID_LENGTH as MAX_LINKED_ID_LENGTH } from '../subscriber-links/link-token';
import { type ApplyRevenueEvents, applyToExperiments, type SubscriptionEvent } from './apply';
import { readLifecycleEvent } from './event-body';
import type { Begun } from './ledger';
import { ledgerStub } from './ledger-shard';
import { type RecordMoneyEvents, recordMoneyEvents } from './money-event';
import { RecentSignatures } from './recent-signatures';
import { canSignRecoverLinks, recoverLinkAnswer } from './recover-link';
import { type LifecycleRefusal, refuseEvent } from './refusals';
import { countRenewalAttempt } from './renewal-attempts';
import {
  freshUntil,
  isFresh,
  matchingSignature,
  readSignatureHeader,
  SIGNATURE_TOLERANCE_SECONDS,
} from './signature';

/**
 * A body far over any event's (a few hundred bytes, with room for extra fields): the cap bounds
 * what one HMAC costs before anything is known about the sender.
 */
export const MAX_EVENT_BYTES = 16 * 1024;

export interface LifecycleOptions {
  /** Wall clock in epoch ms; Date.now unless a test fixes it. */
  now?: () => number;
  /** Where events go once claimed: the experiments' shards, unless a test records them. */
  apply?: ApplyRevenueEvents;
  /** How claimed events reach the event archive: the events queue, unless a test records them. */
  record?: RecordMoneyEvents;
}

/**
 * `POST /hooks/subscription-events` (shared/api/lifecycle.ts): the product API reports a renewal,
 * refund, chargeback, cancellation or failed renewal of a subscription the funnel sold; a failed
 * renewal is answered with its signed recovery link (recover-link.ts). In order, cheapest first:
 * configured, size, signature (Stripe's scheme, signature.ts), freshness; then the body; then one
 * call to the subscription's ledger shard (ledger.ts), which refuses a replayed signature, answers
 * a known event id as a duplicate, refuses (422) an event whose money does not fit the
 * subscription (subscription-fit.ts), and names the buyer; then the event goes to the buyer's
 * experiment shard, and the ledger is told it arrived (or, on a failure, forgets the claim so the
 * product API's retry counts).
 *
 * What a flood costs: a request without a valid signature is refused after one HMAC over at most
 * MAX_EVENT_BYTES, with no storage touched, a fraction of a millisecond of CPU; nobody without the
 * secret reaches the ledger. The only request that does is one the product API signed: a captured
 * one replayed within its 5 minutes reaches the ledger once per isolate (RecentSignatures), then
 * is refused at the edge. A claimed event is also queued as a typed money event for the event
 * archive and Amplitude (money-event.ts), before the answer; never for the pixels or an ad
 * network, which keep the first payment.
 */
export function lifecycleRoutes(options: LifecycleOptions = {}): Hono<LifecycleEnv> {
  const deps: LifecycleDeps = {
    now: options.now ?? Date.now,
    apply: options.apply ?? applyToExperiments,
    record: options.record ?? recordMoneyEvents,
    recent: new RecentSignatures(),
  };
  const routes = new Hono<LifecycleEnv>();
  routes.post('/', checkConfigured, eventBodyLimit(), (c) =>
    receiveLifecycleEvent(deps, handledOf(c)),
  );
  routes.all('/', (c) => refuseEvent(c, { error: 'method_not_allowed' }));
  return routes;
}

/** What the hook's handlers share: the clock, where events go, the signatures seen lately. */
interface LifecycleDeps {
  now: () => number;
  apply: ApplyRevenueEvents;
  record: RecordMoneyEvents;
  recent: RecentSignatures;
}

type HookRequest = Handled;

type Ledger = ReturnType<typeof ledgerStub>;

const checkConfigured: MiddlewareHandler<LifecycleEnv> = async (c, next) => {
  const key = lifecycleKey(c.env);
  if (key.ok) return await next();
  logError('lifecycle_not_configured', { id: c.get('requestId'), detail: key.reason });
  return refuseEvent(c, { error: 'lifecycle_not_configured' });
};

/** A declared Content-Length over the cap is refused unread; a chunked body as soon as it passes. */
function eventBodyLimit() {
  return bodyLimit({
    maxSize: MAX_EVENT_BYTES,
    onError: (c) =>
      refuseEvent(c, { error: 'payload_too_large', detail: `over ${MAX_EVENT_BYTES} bytes` }),
  });
}

/** A signature that holds, is fresh and was not seen lately, or the refusal of one that is not. */
async function checkSignature(
  deps: LifecycleDeps,
  hook: HookRequest,
  key: string,
  body: string,
  receivedAt: number,
): Promise<{ signature: string; timestamp: number } | Response> {
  const header = hook.request.headers.get(LIFECYCLE_SIGNATURE_HEADER) ?? undefined;
  if (header === undefined) return refuseEvent(hook.answer, { error: 'missing_signature' });
  const reading = readSignatureHeader(header);
  if (!reading.ok) {
    return refuseEvent(hook.answer, { error: 'malformed_signature', detail: reading.detail });
  }
  const { timestamp } = reading.header;
  const signature = await matchingSignature(key, reading.header, body);
  if (signature === null) return refuseEvent(hook.answer, { error: 'bad_signature' });
  // After the signature: only a `t` we signed tells the sender their clock is off.
  if (!isFresh(timestamp, receivedAt)) {
    return refuseEvent(hook.answer, {
      error: 'stale_signature',
      detail: staleness(timestamp, receivedAt),
    });
  }
  if (deps.recent.has(signature, receivedAt))
    return refuseEvent(hook.answer, { error: 'replayed' });
  return { signature, timestamp };
}

async function receiveLifecycleEvent(deps: LifecycleDeps, hook: HookRequest) {
  // Checked by checkConfigured; read again for its value.
  const key = lifecycleKey(hook.env);
  if (!key.ok) return refuseEvent(hook.answer, { error: 'lifecycle_not_configured' });
  const body = await hook.request.text();
  const receivedAt = deps.now();
  const signed = await checkSignature(deps, hook, key.key, body, receivedAt);
  if (signed instanceof Response) return signed;
  const { signature, timestamp } = signed;

  const event = readLifecycleEvent(body, receivedAt);
  if (!event.ok) return refuseEvent(hook.answer, { error: 'invalid_event', detail: event.detail });
  noteDrift(hook.requestId, event.drift);
  hook.note('lifecycle', event.event.kind);
  hook.note('event_id', event.event.eventId);
  const unlinkable = event.event.kind === 'renewal_failed' ? linkRefusal(hook, event.event) : null;
  if (unlinkable !== null) return refuseEvent(hook.answer, unlinkable);

  const ledger = ledgerStub(hook.env.SUBSCRIPTION_LEDGER, event.event.subscriptionId);
  let begun: Begun;
  try {
    begun = await ledger.begin(
      event.event,
      { signature, freshUntil: freshUntil(timestamp) },
      receivedAt,
    );
  } catch (error) {
    logError('lifecycle_ledger_failed', { id: hook.requestId, detail: describeError(error) });
    return refuseEvent(hook.answer, { error: 'lifecycle_unavailable', retryAfterSeconds: 30 });
  }
  deps.recent.add(signature, freshUntil(timestamp), receivedAt);
  hook.note('outcome', begun.kind);
  if (begun.kind === 'claimed' && begun.recovered) hook.note('recovered', true);
  const link =
    event.event.kind === 'renewal_failed'
      ? await recoverLinkAnswer(
          hook.env,
          new URL(hook.request.url).origin,
          { id: event.event.subscriptionId, lookOf: (id) => ledger.lookOf(id) },
          receivedAt,
          hook.requestId,
        )
      : {};
  return answerBegun(deps, hook, { event: event.event, link }, begun, ledger);
}

/**
 * Why a `renewal_failed` cannot be answered with its recovery link, checked before the ledger so
 * nothing is counted for it: no SUBSCRIBER_LINK_KEY (503, the product API retries once it is
 * set), or a subscription id longer than a link carries (400).
 */
function linkRefusal(hook: HookRequest, event: SubscriptionEvent): LifecycleRefusal | null {
  const signing = canSignRecoverLinks(hook.env);
  if (!signing.ok) {
    logError('links_not_configured', { id: hook.requestId, detail: signing.reason });
    return { error: 'links_not_configured', retryAfterSeconds: 300 };
  }
  if (event.subscriptionId.length > MAX_LINKED_ID_LENGTH) {
    return {
      error: 'invalid_event',
      detail: `subscription_id: a renewal_failed's is at most ${MAX_LINKED_ID_LENGTH} characters, what a recovery link carries`,
    };
  }
  return null;
}

/** An event on its way, and what its 2xx answers add (a `renewal_failed`'s link). */
interface Passing {
  event: SubscriptionEvent;
  link: RecoverLinkAnswer;
}

/** What the ledger said of the event, as the product API is answered. */
function answerBegun(
  deps: LifecycleDeps,
  hook: HookRequest,
  passing: Passing,
  begun: Begun,
  ledger: Ledger,
): Response | Promise<Response> {
  const { event, link } = passing;
  switch (begun.kind) {
    case 'replayed':
      return refuseEvent(hook.answer, { error: 'replayed' });
    case 'duplicate':
      return answer(hook.answer, 200, { duplicate: true, ...link });
    case 'in_progress':
      return refuseEvent(hook.answer, {
        error: 'event_in_progress',
        retryAfterSeconds: begun.retryAfterSeconds,
      });
    case 'parked':
      // Held for its purchase in case that has not reached the ledger yet (ledger.ts
      // PARKED_MS); otherwise there is nothing to count it against, and a retry would not
      // change that, so the answer is a success.
      return answer(hook.answer, 202, {
        recorded: false,
        reason: 'unknown_subscription',
        ...link,
      });
    case 'refused':
      logWarning('lifecycle_event_refused', {
        id: hook.requestId,
        event_id: event.eventId,
        refusal: begun.refusal,
      });
      return refuseEvent(hook.answer, { error: begun.refusal, detail: begun.detail });
    case 'claimed':
      return passOn(deps, hook, passing, begun, ledger);
  }
}

async function passOn(
  deps: LifecycleDeps,
  hook: HookRequest,
  { event, link }: Passing,
  claimed: Extract<Begun, { kind: 'claimed' }>,
  ledger: Ledger,
) {
  const recovered = claimed.recovered ? { recovered: true } : {};
  const passed = { ...event, visitorId: claimed.visitorId, ...recovered };
  try {
    await deps.apply(hook.env, [passed]);
    // The same insert id on every try (money-event.ts): a retry after a failure here, or after
    // a lost settle, archives it once.
    await deps.record(hook.env, [passed], deps.now());
    await countRenewalAttempt(hook.env, passed, hook.requestId);
  } catch (error) {
    logError('lifecycle_apply_failed', {
      id: hook.requestId,
      event_id: event.eventId,
      detail: describeError(error),
    });
    await ledger.release(event.eventId, claimed.claim).catch((releaseError: unknown) =>
      // The claim lapses after CLAIM_TIMEOUT_MS: a retry after that claims it again.
      logError('lifecycle_release_failed', {
        id: hook.requestId,
        event_id: event.eventId,
        detail: describeError(releaseError),
      }),
    );
    return refuseEvent(hook.answer, { error: 'lifecycle_unavailable', retryAfterSeconds: 30 });
  }
  try {
    await ledger.settle(event.eventId, claimed.claim);
  } catch (error) {
    // It did reach the experiments: a retry after the claim lapses passes it again, and the
    // experiment shard counts an event id once.
    logError('lifecycle_settle_failed', {
      id: hook.requestId,
      event_id: event.eventId,
      detail: describeError(error),
    });
  }
  return answer(hook.answer, 200, { recorded: true, ...link });
}

/** How far `t` is from our clock, for the sender to see whose clock is off. */
function staleness(timestamp: number, nowMs: number): string {
  const seconds = Math.round(timestamp - nowMs / 1000);
  const side = seconds > 0 ? 'ahead of' : 'behind';
  return `t is ${Math.abs(seconds)} s ${side} our clock; at most ${SIGNATURE_TOLERANCE_SECONDS} s is taken`;
}

function answer(c: Answer, status: 200 | 202, body: LifecycleAnswer): Response {
  c.header('Cache-Control', 'no-store');
  return c.json(body, status);
}

/**
 * One `lifecycle_shape` warning per field taken in another form than documented, as the product
 * API's answers' drift is logged (worker/api/call-handler.ts): where and what kind, never the value.
 */
function noteDrift(requestId: string, drift: readonly ShapeDrift[]): void {
  for (const { field, found } of drift) {
    logWarning('lifecycle_shape', { id: requestId, field, found });
  }
}
