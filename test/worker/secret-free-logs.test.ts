import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordFailedRenewal } from '../../portal/pay-due';
import { findChargedSubscription } from '../../portal/store/subscriber-actions';
import { signatureHeaderFor } from '../../shared/api/hook-signature';
import {
  LIFECYCLE_SIGNATURE_HEADER,
  SUBSCRIBER_LINK_REQUEST_PATH,
} from '../../shared/api/lifecycle';
import { logLine } from '../../shared/log';
import { DEVELOPMENT_LIFECYCLE_KEY } from '../../worker/portal-client/lifecycle-key';
import { newResumeId, signResumeId } from '../../worker/resume/resume-token';
import { signSubscriberLink } from '../../worker/subscriber-links/link-token';
import { secretsIn } from '../log-secrets';
import { freshApp } from './fetch-app';
import { freshStorage } from './fresh-storage';
import { checkoutVisitor } from './purchases/checkout-visitor';
import { takeLeaks } from './secret-free-logs';
import { boughtWithLink, cardPostFromPage, PAGE_APP } from './subscriber-links/subscriber-fixtures';
import { CARDS, tokenize } from './test-gateway/gateway-client';

/**
 * What the worker's log keeps of a request that carried a secret (docs/operate.md, "Reading the
 * logs"): a subscriber or resume link's token, a card number, the session's access token. Each
 * line still names the request (its id, the X-Request-Id the answer carried) and the link (its
 * link id), so ops can follow one; none holds the secret, neither as sent nor in a secret's shape
 * (../log-secrets.ts, which also watches every worker test through ./secret-free-logs.ts).
 */

type Line = Record<string, unknown>;
let printed: string[] = [];

beforeEach(async () => {
  await freshStorage();
  printed = [];
  for (const stream of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, stream).mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

/** The lines printed so far, parsed, once none is found to hold any of `secrets`. */
function cleanLines(...secrets: string[]): Line[] {
  expect(printed.length).toBeGreaterThan(0);
  for (const line of printed) {
    for (const secret of secrets) expect(line).not.toContain(secret);
    expect(secretsIn(line)).toEqual([]);
  }
  return printed.map((line) => JSON.parse(line) as Line);
}

/** The request line of `response`, found by the id it answered with. */
function requestLine(lines: Line[], response: Response): Line {
  const id = response.headers.get('x-request-id');
  const line = lines.find((candidate) => candidate.id === id && 'status' in candidate);
  expect(line, `a request line with id ${id}`).toBeDefined();
  return line as Line;
}

/** A card number as typed (`4242 4242 …`) and as its digits. */
const cardForms = (card: string) => [card, card.replace(/\s/g, '')];

describe('the check over every worker test’s log', () => {
  it('sees a raw token printed under a test’s console spy, and not once logLine wrote it', async () => {
    const { token } = await signSubscriberLink('a-key', 'manage', 'sub_1', Date.now());
    console.log(JSON.stringify({ path: `/subscription/${token}` }));
    expect(takeLeaks().map(({ secrets }) => secrets)).toEqual([
      ['subscriber link token', 'resume link token'],
    ]);
    logLine({ path: `/subscription/${token}` });
    expect(takeLeaks()).toEqual([]);
  });

  it('keeps a test’s spy readable where the test reads it, on console', () => {
    console.warn('a refusal');
    const warn = console.warn as unknown as { mock?: { calls: unknown[][] } };
    expect(warn.mock?.calls).toEqual([['a refusal']]);
  });
});

describe('a request carrying a secret', () => {
  it('a manage link made for an email, then opened: its link id, never its token', async () => {
    const fetchApp = freshApp({}, PAGE_APP);
    const body = JSON.stringify({ subscription_id: 'sub_emails_1' });
    const signature = await signatureHeaderFor(
      DEVELOPMENT_LIFECYCLE_KEY,
      Math.floor(Date.now() / 1000),
      body,
    );
    const made = await fetchApp(SUBSCRIBER_LINK_REQUEST_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LIFECYCLE_SIGNATURE_HEADER]: signature },
      body,
    });
    expect(made.status).toBe(200);
    const url = new URL(((await made.json()) as { url: string }).url);
    const token = url.pathname.split('/')[2] ?? '';
    const linkId = token.split('.')[3] ?? '';
    const opened = await fetchApp(url.pathname);

    const lines = cleanLines(token);
    expect(lines.find((line) => line.event === 'subscriber_link_made')).toMatchObject({
      id: made.headers.get('x-request-id'),
      link: linkId,
    });
    const unsigned = token.slice(0, token.lastIndexOf('.'));
    expect(requestLine(lines, opened)).toMatchObject({
      method: 'GET',
      path: `/subscription/${unsigned}.[redacted]`,
    });
    expect(unsigned).toContain(linkId);
  });

  it('a recovery link paying what is due with a card: no token, card number or nonce', async () => {
    const fetchApp = freshApp({}, PAGE_APP);
    const { subscriptionId } = await boughtWithLink(fetchApp);
    const row = await findChargedSubscription(env.PORTAL_DB, subscriptionId);
    if (!row) throw new Error('the purchase made no subscription');
    await recordFailedRenewal(env.PORTAL_DB, row, new Date());
    const { token, link } = await signSubscriberLink(
      env.SUBSCRIBER_LINK_KEY ?? '',
      'recover',
      subscriptionId,
      Date.now(),
    );
    printed = [];
    const nonce = await tokenize(CARDS.succeeds);
    const paid = await cardPostFromPage(fetchApp, `/subscription/${token}`, 'pay-due', {
      gateway: 'test',
      payment_method_nonce: nonce,
    });
    expect(paid.status).toBe(200);

    const lines = cleanLines(token, nonce, ...cardForms(CARDS.succeeds));
    expect(requestLine(lines, paid)).toMatchObject({ method: 'POST', status: 200 });
    expect(lines.find((line) => line.event === 'subscriber_paid_due')).toMatchObject({
      id: paid.headers.get('x-request-id'),
      link: link.linkId,
    });
  });

  it('a purchase with a card, and the signed-in calls around it: no card number or session', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    const session = visitor.cookies.get('gf_session') ?? '';
    expect(session.length).toBeGreaterThan(20);
    const settings = await visitor.call('/api/users/me/payments-settings');
    expect(settings.status).toBe(200);
    const { started, result } = await visitor.pay(CARDS.succeeds);
    expect(result?.status).toBe('succeeded');

    const lines = cleanLines(session, ...cardForms(CARDS.succeeds));
    expect(requestLine(lines, settings)).toMatchObject({ call: 'paymentSettings', status: 200 });
    expect(requestLine(lines, started)).toMatchObject({ method: 'POST', status: 200 });
  });

  it('a resume link: its record id, never its signature', async () => {
    const id = newResumeId();
    const token = await signResumeId(env.RESUME_LINK_KEY ?? '', id);
    const opened = await freshApp()(`/resume/${token}`);
    expect(requestLine(cleanLines(token), opened)).toMatchObject({
      path: `/resume/${id}.[redacted]`,
    });
  });
});
