import {
  CountryResponse,
  DirectSubscriptionResponse,
  type PaymentSettingsResponse,
  PollingResultResponse,
  PollingStartResponse,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import { API_PATHS, apiPath } from '../../shared/api/paths';
import { isPlanId, type Plan, type PlanId, planById, planOf } from '../../shared/plans/catalogue';
import { consentTermsOf } from '../../shared/plans/consent-terms';
import { currencyForCountry } from '../../shared/plans/currency';
import { decimalString } from '../../shared/plans/money';
import { trialDays } from '../../shared/plans/plan-figures';
import { RENEWAL_CONSENT_VERSION } from '../../shared/plans/renewal-consent';
import { isSellingScreen, SCREEN_OFFERS } from '../../shared/plans/screen-offers';
import { TEST_GATEWAY_PATHS, type TokenizedCard } from '../../shared/test-gateway-protocol';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../worker/config/defaults';
import type { SmokeVisitor } from './visitor';

/**
 * The smoke's purchase (./checks.ts): one visitor, who has loaded `/`, signs up with a fresh
 * address and buys a plan as the checkout's islands do through the worker (SPEC.md §7): the
 * payment settings, a card's nonce, the subscription POST and its result. Only ever in the
 * providers' test mode: the embedded portal's test gateway (`npm start`), Stripe with a `pk_test_`
 * key, Braintree with a sandbox token. Live keys charge nothing: the check says so and passes, as
 * the run is then to be repeated against staging.
 */

export interface PurchaseOutcome {
  /** The check's verdict, as ./checks.ts SmokeResult. */
  result: { name: string; ok: boolean; detail: string };
  /** The subscription the product API answered, when a charge was made (the caller then waits for its purchase event in the archive). */
  subscriptionId: string | null;
}

export interface PurchaseOptions {
  /** The plan to buy (`--plan`); the default flow's main plan in the visitor's currency else. */
  planId?: string;
  /** Between two polls of a pending (202) result; 1 s unless said. */
  pollDelayMs?: number;
  /** Polls of a pending result before the check gives up; 30 unless said. */
  maxPolls?: number;
}

const NAME = 'purchase: sign up and pay in test mode';
const POLL_DELAY_MS = 1_000;
const MAX_POLLS = 30;

/** Stripe's success test card, as the test gateway takes it (test/worker/test-gateway/). */
const SUCCESS_CARD = '4242 4242 4242 4242';
/** Stripe's test PaymentMethod for a Visa that succeeds, usable server-side in test mode. */
const STRIPE_TEST_NONCE = 'pm_card_visa';
/** Braintree's sandbox nonce of a valid card. */
const BRAINTREE_TEST_NONCE = 'fake-valid-nonce';

/** A step that failed, its one line of what the worker answered. */
class StepFailure extends Error {}

/** A worker's answer, read once: its status and JSON body (null when not JSON). */
interface Answer {
  status: number;
  body: unknown;
}

/** What the checkout pays with, or why nothing is charged. */
type Payment =
  | { kind: 'skip'; gateway: string }
  | {
      kind: 'pay';
      gateway: 'test' | 'stripe' | 'braintree';
      /** The card provider's POST-then-poll, or the alternate provider's direct call. */
      route: 'polling' | 'direct';
      /** The nonce to charge; null: a card tokenized through the test gateway. */
      nonce: string | null;
    };

export async function purchaseCheck(
  visitor: SmokeVisitor,
  options: PurchaseOptions,
): Promise<PurchaseOutcome> {
  try {
    return await purchase(visitor, options);
  } catch (error) {
    const detail =
      error instanceof StepFailure ? error.message : `stopped: ${(error as Error).message}`;
    return { result: { name: NAME, ok: false, detail }, subscriptionId: null };
  }
}

async function purchase(visitor: SmokeVisitor, options: PurchaseOptions): Promise<PurchaseOutcome> {
  const email = `smoke-${crypto.randomUUID()}@example.com`;
  const signedUp = await ask(visitor, 'sign-up', `/api${API_PATHS.signup}`, {
    registration_source: 'email',
    email,
  });
  if (signedUp.status >= 300) throw failure('sign-up', `/api${API_PATHS.signup}`, signedUp);
  const payment = paymentOf(await paymentSettings(visitor));
  if (payment.kind === 'skip') {
    const detail = `skipped: live payment keys (${payment.gateway}), so no test charge; run it against staging`;
    return { result: { name: NAME, ok: true, detail }, subscriptionId: null };
  }
  const plan = await planToBuy(visitor, options.planId);
  const nonce = payment.nonce ?? (await tokenize(visitor));
  const body = subscriptionBody(plan, payment.gateway, nonce, { email, visitor });
  const subscriptionId =
    payment.route === 'polling'
      ? await chargeByPolling(visitor, plan.id, body, options)
      : await chargeDirectly(visitor, plan.id, body);
  const detail = `charged ${plan.id} (${decimalString(plan.periodPrice, plan.currency)} ${plan.currency}) through gateway ${payment.gateway} (${payment.route} route): subscription ${subscriptionId}`;
  return { result: { name: NAME, ok: true, detail }, subscriptionId };
}

// --- Calls ---------------------------------------------------------------------------------

/** A call from the funnel's page, read whole; no answer at all is the step's failure. */
async function ask(
  visitor: SmokeVisitor,
  step: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<Answer> {
  let response: Response;
  try {
    response = await visitor.call(path, body, headers);
  } catch (error) {
    throw new StepFailure(`${step}: ${path} no answer (${(error as Error).message})`);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: null };
  }
}

/** The refusal's code in an answer: the worker's `code`, or `error` / `error.code`. */
function errorCodeOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { code, error } = body as { code?: unknown; error?: unknown };
  if (typeof code === 'string') return code;
  if (typeof error === 'string') return error;
  const nested = (error as { code?: unknown } | null | undefined)?.code;
  return typeof nested === 'string' ? nested : null;
}

/** `answered 403 plan_not_offered`, with the decline code when the answer names one. */
function answerWords(answer: Answer): string {
  const code = errorCodeOf(answer.body);
  const decline = (answer.body as { decline_code?: unknown } | null)?.decline_code;
  return [
    `answered ${answer.status}`,
    code,
    typeof decline === 'string' ? `(decline ${decline})` : null,
  ]
    .filter(Boolean)
    .join(' ');
}

function failure(step: string, path: string, answer: Answer, advice?: string): StepFailure {
  return new StepFailure(`${step}: ${path} ${answerWords(answer)}${advice ? `: ${advice}` : ''}`);
}

// --- Payment settings ----------------------------------------------------------------------

async function paymentSettings(visitor: SmokeVisitor): Promise<PaymentSettingsResponse> {
  const path = `/api${API_PATHS.paymentSettings}`;
  const answer = await ask(visitor, 'payment settings', path);
  if (answer.status !== 200) throw failure('payment settings', path, answer);
  const body = answer.body as Partial<PaymentSettingsResponse> | null;
  if (typeof body !== 'object' || body === null || !('payment_gateway' in body)) {
    throw new StepFailure(`payment settings: ${path} answered 200 without payment_gateway`);
  }
  return body as PaymentSettingsResponse;
}

/**
 * The provider the checkout pays with (islands/payments/providers/index.ts chooseProvider): the
 * test gateway when the portal names it; else the provider the worker routed this checkout to
 * (`payment_provider`), else the portal's gateway, Stripe when it names none. Braintree pays by
 * the direct call, Stripe by polling; the test gateway plays either.
 */
function paymentOf(settings: PaymentSettingsResponse): Payment {
  const routed = settings.payment_provider ?? settings.payment_gateway;
  if (settings.payment_gateway === 'test') {
    return {
      kind: 'pay',
      gateway: 'test',
      route: routed === 'braintree' ? 'direct' : 'polling',
      nonce: null,
    };
  }
  return routed === 'braintree'
    ? braintreePayment(settings.braintree_client_token)
    : stripePayment(settings.stripe_publishable_key);
}

function stripePayment(key: string | null): Payment {
  if (key?.startsWith('pk_test_')) {
    return { kind: 'pay', gateway: 'stripe', route: 'polling', nonce: STRIPE_TEST_NONCE };
  }
  if (key?.startsWith('pk_live_')) return { kind: 'skip', gateway: 'stripe' };
  throw new StepFailure(
    `payment settings: stripe with ${key ? 'a publishable key neither pk_test_ nor pk_live_' : 'no publishable key'}: the checkout cannot take a card`,
  );
}

function braintreePayment(token: string | null): Payment {
  const environment = braintreeEnvironment(token);
  if (environment === 'sandbox') {
    return { kind: 'pay', gateway: 'braintree', route: 'direct', nonce: BRAINTREE_TEST_NONCE };
  }
  if (environment === 'production') return { kind: 'skip', gateway: 'braintree' };
  throw new StepFailure(
    `payment settings: braintree with ${token ? `a client token of environment ${environment ?? 'unreadable'}` : 'no client token'}: no test charge`,
  );
}

/**
 * The environment a Braintree authorization names, read as braintree-web reads it
 * (lib/create-authorization-data.js): a tokenization key starts with it (`sandbox_…_…`); a
 * client token is base64 of JSON with an `environment` field. Null when it names none.
 */
function braintreeEnvironment(token: string | null): string | null {
  if (!token) return null;
  const key = /^([a-zA-Z0-9]+)_[a-zA-Z0-9]+_[a-zA-Z0-9_]+$/.exec(token);
  if (key) return key[1] ?? null;
  try {
    const decoded = JSON.parse(atob(token)) as { environment?: unknown } | null;
    return typeof decoded?.environment === 'string' ? decoded.environment : null;
  } catch {
    return null;
  }
}

// --- The plan ------------------------------------------------------------------------------

/**
 * The main plan the default config sells first (worker/config/defaults.ts): the default split
 * variant's flow, its first screen that sells a main plan, that screen's preselected family
 * (shared/plans/screen-offers.ts), in the currency of `country` by the built-in table. A deploy
 * whose config sells otherwise refuses it (`plan_not_offered`), and is given `--plan`.
 */
function defaultPlanId(country: string | null): PlanId {
  const flow = DEFAULT_SPLIT.variants[DEFAULT_SPLIT.defaultVariant]?.flow ?? 'default';
  const screens: readonly string[] = DEFAULT_FLOWS.flows[flow] ?? [];
  const paywall = screens
    .filter(isSellingScreen)
    .find((screen) => SCREEN_OFFERS[screen].sells === 'main');
  const family = paywall ? SCREEN_OFFERS[paywall].defaultFamily : 'monthly_7d_intro';
  return planOf(family, currencyForCountry(country)).id;
}

async function planToBuy(visitor: SmokeVisitor, planId: string | undefined): Promise<Plan> {
  if (planId !== undefined) {
    if (!isPlanId(planId)) {
      throw new StepFailure(
        `plan: ${planId} is no plan of the catalogue (shared/plans/catalogue.ts)`,
      );
    }
    return planById(planId);
  }
  const path = `/api${API_PATHS.country}`;
  const answer = await ask(visitor, 'plan', path);
  const country = CountryResponse.safeParse(answer.body);
  if (answer.status !== 200 || !country.success) {
    throw failure(
      'plan',
      path,
      answer,
      'no country to price the default plan in; pass --plan <id>',
    );
  }
  return planById(defaultPlanId(country.data.country_code));
}

// --- The charge ----------------------------------------------------------------------------

/** Stripe's success test card through the test gateway, as the checkout's card frame does. */
async function tokenize(visitor: SmokeVisitor): Promise<string> {
  const path = TEST_GATEWAY_PATHS.paymentMethods;
  const card = {
    number: SUCCESS_CARD,
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 1,
    cvc: '123',
  };
  const answer = await ask(visitor, 'card', path, card);
  const id = (answer.body as Partial<TokenizedCard> | null)?.id;
  if (answer.status !== 200 || typeof id !== 'string') throw failure('card', path, answer);
  return id;
}

/**
 * SPEC.md §3 Request payload, as the checkout sends it: the plan's data (screens/plans/plan-copy.ts
 * `details`) with the visitor's, and the renewal box ticked beside the plan's terms in English
 * (shared/plans/renewal-consent.ts); a one-time plan renews nothing to consent to.
 */
function subscriptionBody(
  plan: Plan,
  gateway: string,
  nonce: string,
  who: { email: string; visitor: SmokeVisitor },
): SubscriptionRequest {
  const terms = consentTermsOf(plan, null);
  return {
    gateway,
    payment_method_nonce: nonce,
    coupon: null,
    payment_intent_id: null,
    user_data: {
      id: plan.id,
      currency: plan.currency,
      price: decimalString(plan.price, plan.currency),
      periodPrice: decimalString(plan.periodPrice, plan.currency),
      trialDays: trialDays(plan),
      coupon: null,
      email: who.email,
      user_uuid: who.visitor.cookie('userUuid') ?? null,
    },
    renewal_consent: terms
      ? { text_version: RENEWAL_CONSENT_VERSION, language: 'en', terms }
      : null,
  };
}

/** What the operator is told when the worker's offer does not sell the plan. */
function refusalAdvice(answer: Answer, planId: string): string | undefined {
  const code = errorCodeOf(answer.body);
  if (code === 'plan_not_offered' || code === 'coupon_not_offered') {
    return `this deploy's config does not sell ${planId} to the smoke's visitor; pass --plan <id> with a plan its paywall offers`;
  }
  return undefined;
}

async function chargeByPolling(
  visitor: SmokeVisitor,
  planId: string,
  body: SubscriptionRequest,
  options: PurchaseOptions,
): Promise<string> {
  const path = `/api${apiPath(API_PATHS.pollingSubscription, { planId })}`;
  const headers = { 'idempotency-key': crypto.randomUUID() };
  const started = await ask(visitor, 'subscribe', path, body, headers);
  const start = PollingStartResponse.safeParse(started.body);
  if (started.status !== 200 || !start.success) {
    throw failure('subscribe', path, started, refusalAdvice(started, planId));
  }
  const result = await pollResult(visitor, start.data.data.polling_result_id, options);
  if (result?.status === 'succeeded' && result.subscription_id) return result.subscription_id;
  if (result?.status === 'requires_action') {
    throw new StepFailure(
      'result: requires_action (3-D Secure asked for a test card that needs none)',
    );
  }
  const why = [result?.decline_code, result?.processor_response].filter(Boolean).join(', ');
  throw new StepFailure(
    `result: ${result ? `${result.status}${why ? ` (${why})` : ''}` : 'final without result_data'}`,
  );
}

/** GET the polling result while it answers 202 (SPEC.md §7), `maxPolls` times at most. */
async function pollResult(visitor: SmokeVisitor, pollingId: string, options: PurchaseOptions) {
  const path = `/api${apiPath(API_PATHS.pollingResult, { pollingId })}`;
  const maxPolls = options.maxPolls ?? MAX_POLLS;
  for (let poll = 1; poll <= maxPolls; poll += 1) {
    const answer = await ask(visitor, 'result', path);
    if (answer.status === 202) {
      if (poll < maxPolls) await sleep(options.pollDelayMs ?? POLL_DELAY_MS);
      continue;
    }
    const parsed = PollingResultResponse.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) throw failure('result', path, answer);
    return parsed.data.data.result_data;
  }
  throw new StepFailure(`result: ${path} still 202 after ${maxPolls} polls`);
}

/** The alternate provider's direct call (Braintree, or the test gateway routed there). */
async function chargeDirectly(
  visitor: SmokeVisitor,
  planId: string,
  body: SubscriptionRequest,
): Promise<string> {
  const path = `/api${apiPath(API_PATHS.directSubscription, { planId })}`;
  const headers = { 'idempotency-key': crypto.randomUUID() };
  const answer = await ask(visitor, 'subscribe', path, body, headers);
  const charged = DirectSubscriptionResponse.safeParse(answer.body);
  const subscriptionId = charged.success ? charged.data.data.subscription_id : null;
  if (answer.status === 200 && subscriptionId) return subscriptionId;
  const advice =
    errorCodeOf(answer.body) === 'user_action_required'
      ? '3-D Secure asked for a test card that needs none'
      : refusalAdvice(answer, planId);
  throw failure('subscribe', path, answer, advice);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
