import { Hono } from 'hono';
import {
  CONTRACT_PAGE_CSS,
  type ContractCopy,
  type ContractFormErrors,
  type ContractFormValues,
  ContractPage,
  type ContractPageKind,
  type ContractView,
  DECLARATION_FIELD,
} from '../../screens/contract/ContractPage';
import { longDay } from '../../screens/subscriber/subscription-rows';
import {
  CONTRACT_ANSWER,
  CONTRACT_CALLS,
  CONTRACT_REFERENCE_MAX,
  type ContractAnswer,
  type ContractRequest,
  LINK_REQUEST_ANSWER,
  type LinkRequest,
} from '../../shared/api/contract-calls';
import { CONTRACT_PAGES, contractPageHref } from '../../shared/contract-page';
import { isValidEmail } from '../../shared/email-validity';
import { logLine } from '../../shared/log';
import { WITHDRAWAL_DAYS } from '../../shared/plans/withdrawal';
import { isProduction } from '../environment';
import { requestBrand } from '../funnel/locale';
import type { PortalFetch, Visit } from '../portal-client/portal-call';
import { signedCall } from '../portal-client/signed-call';
import {
  CONTRACT_PAGE_RULES,
  LINK_REQUEST_RULES,
  limitRefusal,
} from '../rate-limits/rate-limit-gate';
import { renderPage } from '../render/render-page';
import type { SubscriberEnv } from '../request/envs';
import { formBodyLimit, formOriginOnly } from '../request/form-guards';
import { visitOf } from '../request/visit';
import { REQUESTED_LINK_LIFETIME_SECONDS } from '../subscriber-links/link-token';
import { type SubscriberFacts, subscriberFactsOf } from '../subscriber-links/page-facts';

/**
 * `/contract/withdraw` and `/contract/cancel` (docs/payments.md, "Withdraw and cancel online"):
 * `GET` the form, `POST` the declaration; `/contract/link` the same for "Email me a link to my
 * subscription", by the email alone (LINK_REQUEST_RULES, the product API's `linkRequest`). A post from this page only (the same-origin rule), of a
 * few short fields, is checked as strictly as any visitor's form, counted against the address
 * and the email (CONTRACT_PAGE_RULES), then sent to the product API (shared/api/
 * contract-calls.ts), which ends the contract where the email and the reference match and emails
 * the acknowledgement. The page answers the acknowledgement whatever matched: it tells no one
 * whether an address holds a contract.
 */

/** A form of a few short fields and a reason of at most 1,000 characters (UTF-8, encoded). */
const FORM_MAX_BYTES = 16 * 1024;

/** An extraordinary cancellation's reason, and a name: at most this many characters kept. */
const REASON_MAX = 1000;
const NAME_MAX = 120;

/** A reference as receipts write one: letters, digits and `_-.` (a subscription's `sub_…`). */
const REFERENCE = new RegExp(`^[A-Za-z0-9_.-]{1,${CONTRACT_REFERENCE_MAX}}$`);

/** A declaration's key as the page makes them (crypto.randomUUID). */
const DECLARATION = /^[0-9a-f-]{36}$/;

/** The answers nobody may keep: the form carries a one-time key, the acknowledgement an email. */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
} as const;

const isContractPage = (page: string): page is ContractPageKind =>
  (CONTRACT_PAGES as readonly string[]).includes(page);

/** The page's copy in its language, for `page`. */
function copyOf(facts: SubscriberFacts, page: ContractPageKind): ContractCopy {
  const { t } = facts;
  const key = `subscriber.contract.${page}`;
  return {
    title: t(`${key}.title`),
    lead: t(`${key}.lead`, {
      days: WITHDRAWAL_DAYS,
      hours: REQUESTED_LINK_LIFETIME_SECONDS / 3600,
    }),
    email: t('subscriber.contract.fields.email'),
    reference: t('subscriber.contract.fields.reference'),
    referenceHint: t('subscriber.contract.fields.reference_hint'),
    name: t('subscriber.contract.fields.name'),
    type: t('subscriber.contract.fields.type'),
    ordinary: t('subscriber.contract.fields.ordinary'),
    extraordinary: t('subscriber.contract.fields.extraordinary'),
    reason: t('subscriber.contract.fields.reason'),
    endDate: t('subscriber.contract.fields.end_date'),
    endDateHint: t('subscriber.contract.fields.end_date_hint'),
    confirm: t(`${key}.confirm`),
    linkAsk:
      page === 'link'
        ? null
        : { text: t('subscriber.contract.link.ask'), href: contractPageHref('link', facts.theme) },
  };
}

async function pageOf(
  facts: SubscriberFacts,
  view: ContractView,
  title: string,
  status = 200,
): Promise<Response> {
  const brand = requestBrand(facts.config, facts.theme);
  const response = await renderPage(
    <ContractPage t={facts.t} brand={brand} theme={facts.theme} view={view} />,
    {
      nonce: facts.nonce,
      language: facts.language,
      theme: facts.theme,
      brand,
      title: facts.t('page_title', { title, brand: brand.titleSuffix }),
      screenCss: CONTRACT_PAGE_CSS,
      status,
    },
  );
  for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

function formPage(
  facts: SubscriberFacts,
  page: ContractPageKind,
  form: { values: ContractFormValues; errors: ContractFormErrors; declaration?: string },
  nowMs: number,
  status = 200,
): Promise<Response> {
  const copy = copyOf(facts, page);
  const view: ContractView = {
    kind: 'form',
    page,
    // Posted in the page's brand: the statement and the acknowledgement name it.
    action: contractPageHref(page, facts.theme),
    copy,
    values: form.values,
    errors: form.errors,
    declaration: form.declaration ?? crypto.randomUUID(),
    today: dayOf(nowMs),
  };
  return pageOf(facts, view, copy.title, status);
}

function refusedPage(
  facts: SubscriberFacts,
  reason: 'rate_limited' | 'unavailable',
  status: 429 | 503,
): Promise<Response> {
  facts.note('error', `contract_${reason}`);
  const { t } = facts;
  const title = t(`subscriber.contract.refused.${reason}.title`);
  const lead = t(`subscriber.contract.refused.${reason}.lead`, {
    email: requestBrand(facts.config, facts.theme).supportEmail,
  });
  return pageOf(facts, { kind: 'refused', title, lead }, title, status);
}

const field = (form: Record<string, unknown>, name: string) => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

/** A day as a date field writes it (YYYY-MM-DD, UTC). */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** How far ahead a cancellation's day may be: no term of the catalogue runs longer. */
const END_DATE_MAX_DAYS = 2 * 366;

/**
 * Whether `day` is a cancellation day the page takes: a real YYYY-MM-DD from today (UTC) to
 * END_DATE_MAX_DAYS ahead.
 */
function isEndDate(day: string, nowMs: number): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const at = Date.parse(`${day}T00:00:00Z`);
  if (!Number.isFinite(at) || dayOf(at) !== day) return false;
  return day >= dayOf(nowMs) && at <= nowMs + END_DATE_MAX_DAYS * 86_400_000;
}

/** What the post carried, trimmed and cut to the fields' lengths, and what is wrong with it. */
function readForm(
  facts: SubscriberFacts,
  page: ContractPageKind,
  form: Record<string, unknown>,
  nowMs: number,
): { values: ContractFormValues; errors: ContractFormErrors; declaration: string } {
  const { t } = facts;
  const values: ContractFormValues = {
    email: field(form, 'email').trim().slice(0, 254),
    reference: field(form, 'reference')
      .trim()
      .slice(0, CONTRACT_REFERENCE_MAX + 1),
    name: field(form, 'name').trim().slice(0, NAME_MAX),
    type:
      page === 'cancel' && field(form, 'type') === 'extraordinary' ? 'extraordinary' : 'ordinary',
    reason: field(form, 'reason').trim().slice(0, REASON_MAX),
    endDate: page === 'cancel' ? field(form, 'end_date').trim().slice(0, 10) : '',
  };
  const errors: ContractFormErrors = {};
  if (values.email === '') errors.email = t('email_error_message_empty');
  else if (!isValidEmail(values.email)) errors.email = t('email_error_message_invalid');
  if (page !== 'link' && !REFERENCE.test(values.reference)) {
    errors.reference = t(
      values.reference === ''
        ? 'subscriber.contract.errors.reference_empty'
        : 'subscriber.contract.errors.reference_invalid',
    );
  }
  // An extraordinary cancellation ends at once: a day applies to an ordinary one only.
  if (values.type === 'extraordinary') values.endDate = '';
  if (values.endDate !== '' && !isEndDate(values.endDate, nowMs)) {
    errors.end_date = t('subscriber.contract.errors.end_date_invalid');
  }
  if (values.type === 'extraordinary' && values.reason === '') {
    errors.reason = t('subscriber.contract.errors.reason_empty');
  }
  // A key the page did not make (a forged or missing one) declares anew under a fresh one.
  const posted = field(form, DECLARATION_FIELD);
  const declaration = DECLARATION.test(posted) ? posted : crypto.randomUUID();
  return { values, errors, declaration };
}

/** The email as the per-email limit counts it: a digest, so no counter's name holds an address. */
async function emailDigest(email: string): Promise<string> {
  const bytes = new TextEncoder().encode(email.trim().toLowerCase());
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.slice(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The declaration the visitor confirmed, in the page's language, as the acknowledgement quotes it. */
function statementOf(facts: SubscriberFacts, page: ContractPageKind, values: ContractFormValues) {
  const { t } = facts;
  const brand = requestBrand(facts.config, facts.theme).name;
  const words = { brand, reference: values.reference, reason: values.reason };
  if (page === 'withdraw') return t('subscriber.contract.withdraw.statement', words);
  if (values.type === 'extraordinary') {
    return t('subscriber.contract.cancel.statement_extraordinary', words);
  }
  return values.endDate === ''
    ? t('subscriber.contract.cancel.statement_ordinary', words)
    : t('subscriber.contract.cancel.statement_ordinary_on', {
        ...words,
        date: longDay(values.endDate, facts.language) ?? values.endDate,
      });
}

/** A moment as the acknowledgement states it: the day and the time, in UTC, in the page's language. */
function momentOf(at: number, language: string): string {
  const format = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(new Date(at))} UTC`;
}

/** The acknowledgement: the statement, when it was received, and what identifies it. */
function receivedView(
  facts: SubscriberFacts,
  page: ContractPageKind,
  declared: { values: ContractFormValues; statement: string; at: number },
  answer: ContractAnswer['data'],
): ContractView {
  const { t, language } = facts;
  const receivedAt = answer.received_at === null ? declared.at : Date.parse(answer.received_at);
  const rows = [
    { label: t('subscriber.contract.received.statement'), value: declared.statement },
    { label: t('subscriber.contract.received.at'), value: momentOf(receivedAt, language) },
    {
      label: t('subscriber.contract.fields.reference'),
      value: declared.values.reference,
      ltr: true,
    },
    { label: t('subscriber.contract.fields.email'), value: declared.values.email, ltr: true },
  ];
  if (answer.request_id !== null) {
    rows.push({
      label: t('subscriber.contract.received.number'),
      value: answer.request_id,
      ltr: true,
    });
  }
  return {
    kind: 'received',
    title: t(`subscriber.contract.${page}.received_title`),
    lead: t('subscriber.contract.received.lead', { email: declared.values.email }),
    rows,
    keep: t('subscriber.contract.received.keep'),
  };
}

/** A form that passed its checks and limits, to send: whose request, when, under which key. */
interface Sending {
  visit: Visit;
  facts: SubscriberFacts;
  at: number;
  /** The form's one-time key: the call's Idempotency-Key. */
  key: string;
}

type CallDeps = { portalFetch?: PortalFetch; now: () => number };

/** A withdrawal or a cancellation, declared to the product API and acknowledged on the page. */
async function declare(
  sending: Sending,
  page: 'withdraw' | 'cancel',
  values: ContractFormValues,
  deps: CallDeps,
): Promise<Response> {
  const { facts, at } = sending;
  const statement = statementOf(facts, page, values);
  const request: ContractRequest = {
    kind: page === 'withdraw' ? 'withdrawal' : 'cancellation',
    email: values.email,
    reference: values.reference,
    ...(values.name ? { name: values.name } : {}),
    ...(page === 'cancel' ? { cancellation_type: values.type } : {}),
    ...(page === 'cancel' && values.type === 'extraordinary' ? { reason: values.reason } : {}),
    ...(values.endDate ? { end_date: values.endDate } : {}),
    submitted_at: new Date(at).toISOString(),
    statement,
    brand: facts.theme,
    language: facts.language,
  };
  const call = CONTRACT_CALLS.contractRequest;
  const signed = {
    name: 'contractRequest',
    call,
    path: call.path,
    body: request,
    idempotencyKey: `contract:${sending.key}`,
  };
  const answer = await signedCall(sending.visit, signed, CONTRACT_ANSWER, deps);
  if (!answer.ok) return refusedPage(facts, 'unavailable', 503);
  const data = answer.value.data;
  // What matched is for the log, never for the page.
  logLine({
    id: facts.requestId,
    event: 'contract_declared',
    kind: request.kind,
    outcome: data.outcome ?? 'unknown',
    ...(data.request_id === null ? {} : { declaration: data.request_id }),
  });
  return pageOf(
    facts,
    receivedView(facts, page, { values, statement, at }, data),
    facts.t(`subscriber.contract.${page}.received_title`),
  );
}

/**
 * "Email me a link to my subscription": the product API emails a day-long manage link to each
 * subscription of the address, and nothing to one that holds none; the page says the same to both.
 */
async function askForLink(
  sending: Sending,
  values: ContractFormValues,
  deps: CallDeps,
): Promise<Response> {
  const { facts, at } = sending;
  const { t } = facts;
  const call = CONTRACT_CALLS.linkRequest;
  const request: LinkRequest = {
    email: values.email,
    requested_at: new Date(at).toISOString(),
    brand: facts.theme,
    language: facts.language,
  };
  const signed = {
    name: 'linkRequest',
    call,
    path: call.path,
    body: request,
    idempotencyKey: `link:${sending.key}`,
  };
  const answer = await signedCall(sending.visit, signed, LINK_REQUEST_ANSWER, deps);
  if (!answer.ok) return refusedPage(facts, 'unavailable', 503);
  const { request_id, links } = answer.value.data;
  logLine({
    id: facts.requestId,
    event: 'subscriber_link_asked',
    links: links ?? 'unknown',
    ...(request_id === null ? {} : { request: request_id }),
  });
  const title = t('subscriber.contract.link.received_title');
  const view: ContractView = {
    kind: 'received',
    title,
    lead: t('subscriber.contract.link.received_lead', {
      email: values.email,
      hours: REQUESTED_LINK_LIFETIME_SECONDS / 3600,
    }),
    rows: [],
    keep: t('subscriber.contract.link.keep', {
      email: requestBrand(facts.config, facts.theme).supportEmail,
    }),
  };
  return pageOf(facts, view, title);
}

export interface ContractRouteOptions {
  portalFetch?: PortalFetch;
  now?: () => number;
  /** The least time a declaration or a link request answers in; see answerFloorOf. */
  answerFloorMs?: number;
}

/**
 * In production, a declaration or a link request answers no sooner than this after it came in.
 * The page reads the same whether or not an address holds a contract, but the product API may
 * take longer to cancel, refund and email than to find nothing: without a floor, the answer's
 * time would tell an address apart (docs/product-api.md, "Withdraw and cancel online", asks the
 * product API to answer before it acts, which this does not rely on). A second covers what the
 * product API takes in the common case; the rate limits bound how often anyone can measure.
 */
const PRODUCTION_ANSWER_FLOOR_MS = 1000;

function answerFloorOf(options: ContractRouteOptions, env: SubscriberEnv['Bindings']): number {
  return options.answerFloorMs ?? (isProduction(env) ? PRODUCTION_ANSWER_FLOOR_MS : 0);
}

/** Waits until `floorMs` after `since` (epoch ms, by `now`), if that is still to come. */
async function heldUntil(since: number, floorMs: number, now: () => number): Promise<void> {
  const left = since + floorMs - now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

export function contractRoutes(options: ContractRouteOptions = {}): Hono<SubscriberEnv> {
  const now = options.now ?? Date.now;
  const routes = new Hono<SubscriberEnv>();
  routes.post('/:page', formOriginOnly(), formBodyLimit(FORM_MAX_BYTES));

  routes.get('/:page', async (c, next) => {
    const page = c.req.param('page');
    if (!isContractPage(page)) return next();
    const empty = {
      email: '',
      reference: '',
      name: '',
      type: 'ordinary',
      reason: '',
      endDate: '',
    } as const;
    return formPage(subscriberFactsOf(c), page, { values: empty, errors: {} }, now());
  });

  routes.post('/:page', async (c, next) => {
    const page = c.req.param('page');
    if (!isContractPage(page)) return next();
    const facts = subscriberFactsOf(c);
    const form = readForm(facts, page, await c.req.parseBody(), now());
    if (Object.keys(form.errors).length > 0) {
      facts.note('error', 'contract_form_invalid');
      return formPage(facts, page, form, now(), 422);
    }
    const asker = {
      env: c.env,
      // The page has no visitor: the rules count the address and the email.
      visitorId: 'contract_page',
      connectingIp: c.req.header('cf-connecting-ip'),
      requestId: facts.requestId,
      note: facts.note,
    };
    const topic = { phone: null, email: await emailDigest(form.values.email) };
    const rules = page === 'link' ? LINK_REQUEST_RULES : CONTRACT_PAGE_RULES;
    if (await limitRefusal(asker, `contract_${page}`, rules, topic)) {
      return refusedPage(facts, 'rate_limited', 429);
    }
    const sent = { visit: visitOf(c), facts, at: now(), key: form.declaration };
    const deps = { portalFetch: options.portalFetch, now };
    const answer =
      page === 'link'
        ? await askForLink(sent, form.values, deps)
        : await declare(sent, page, form.values, deps);
    await heldUntil(sent.at, answerFloorOf(options, c.env), now);
    return answer;
  });
  return routes;
}
