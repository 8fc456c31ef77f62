import { base64url } from 'jose';
import { hex } from '../../shared/hex';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerifyAny } from '../signing';

/**
 * The signed links that open a subscription on the web for the person who bought it, without a
 * password: from the receipt, the success screen and the product API's emails (the subscriber's
 * page: plan, card, cancel), and from a failed renewal's email (pay what is due). A link is
 * single-purpose and dated: what it may do, which subscription, until when, and a random id that
 * names this one link, so the page that acts on it can refuse it once its action is done.
 *
 * The token is `<purpose>.<subscription id, base64url>.<expiry, unix seconds>.<link id>.<look>.<signature>`,
 * the signature the HMAC-SHA256 (base64url) under SUBSCRIBER_LINK_KEY (./link-key.ts) of
 * everything before it, prefixed with this scheme's name so no other signed thing of the worker's
 * (resume links, preview tokens, cookies) can pass for one. Nothing in it is secret but the
 * signature: a subscription id is no password, and the link needs none of the visitor's cookies,
 * as an email is opened anywhere.
 *
 * The look, `<theme>~<language>` (`brainbloom~de`), is the brand and language the subscription was
 * bought in: the pages the link opens wear them whatever browser opens it (an email read on
 * another device, in another language), so a subscriber meets after the sale the brand they
 * bought. A link made where the purchase's look is unknown has none (and so do the links made
 * before it was added, which keep opening): its pages take the request's, as before.
 */

export const SUBSCRIBER_LINK_PURPOSES = ['manage', 'recover'] as const;
/** `manage`: see the subscription, update its card, cancel; `recover`: pay a failed renewal. */
export type SubscriberLinkPurpose = (typeof SUBSCRIBER_LINK_PURPOSES)[number];

/** Where a link opens: `/subscription/<token>`. */
export const SUBSCRIBER_PAGE_PATH = '/subscription';

const DAY_SECONDS = 86_400;

/**
 * How long a link opens its page. A manage link stands in the receipt's email and must still
 * cancel months later (a subscriber who cannot find a way out calls their bank instead); a
 * recovery link is for the dunning weeks of one renewal. Each email carries a fresh link.
 */
export const LINK_LIFETIME_SECONDS: Record<SubscriberLinkPurpose, number> = {
  manage: 400 * DAY_SECONDS,
  recover: 30 * DAY_SECONDS,
};

/** The product API's subscription ids are short; anything longer is no link we made. */
export const MAX_SUBSCRIPTION_ID_LENGTH = 128;

/** The brand and language a link's pages wear: the purchase's (SPEC.md §3 themes, §9 languages). */
export interface LinkLook {
  theme: string;
  language: string;
}

/** What a link says, once its signature is checked. */
export interface SubscriberLink {
  purpose: SubscriberLinkPurpose;
  subscriptionId: string;
  /** Unix seconds after which it opens nothing. */
  expiresAt: number;
  /** 128 random bits, hex: names this link, so a done action can refuse it again. */
  linkId: string;
  /** The purchase's brand and language, or null for a link made without them. */
  look: LinkLook | null;
}

/** A look's theme and language: the shape only; the page takes only those it has. */
const THEME_PATTERN = '[a-z][a-z-]{0,31}';
const LANGUAGE_PATTERN = '[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?';
const LOOK_THEME = new RegExp(`^${THEME_PATTERN}$`);
const LOOK_LANGUAGE = new RegExp(`^${LANGUAGE_PATTERN}$`);

const TOKEN = new RegExp(
  `^(manage|recover)\\.([A-Za-z0-9_-]{1,172})\\.(\\d{1,12})\\.([0-9a-f]{32})` +
    `(?:\\.(${THEME_PATTERN})~(${LANGUAGE_PATTERN}))?\\.([A-Za-z0-9_-]{43})$`,
);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeId(segment: string): string | null {
  const bytes = base64urlBytes(segment);
  if (bytes === null) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function signedText(unsigned: string): string {
  return `geofunnel-subscriber-link\n${unsigned}`;
}

/** A look a token can carry, or null: one of another shape is left out rather than signed. */
function carriedLook(look: LinkLook | null | undefined): LinkLook | null {
  if (!look) return null;
  return LOOK_THEME.test(look.theme) && LOOK_LANGUAGE.test(look.language) ? look : null;
}

/**
 * A manage link the subscriber asked for by email (the contract page's "Email me a link", through
 * the product API): whoever reads that inbox may cancel or refund with it, so it lives a day.
 */
export const REQUESTED_LINK_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * A new link's token for `subscriptionId`, valid from `nowMs` for its purpose's lifetime (or
 * `lifetimeSeconds`, shorter, for a link asked for by email), wearing
 * `look` (the purchase's brand and language) where it is known. The id is what the product API
 * named the subscription; one that no link could carry (empty, or longer than any id the product
 * API gives) is refused here, where it is a bug, not at the page.
 */
export async function signSubscriberLink(
  secret: string,
  purpose: SubscriberLinkPurpose,
  subscriptionId: string,
  nowMs: number,
  look?: LinkLook | null,
  lifetimeSeconds: number = LINK_LIFETIME_SECONDS[purpose],
): Promise<{ token: string; link: SubscriberLink }> {
  if (subscriptionId.length === 0 || subscriptionId.length > MAX_SUBSCRIPTION_ID_LENGTH) {
    throw new RangeError(`no link for a subscription id of ${subscriptionId.length} characters`);
  }
  const expiresAt = Math.floor(nowMs / 1000) + lifetimeSeconds;
  const linkId = hex(crypto.getRandomValues(new Uint8Array(16)));
  const carried = carriedLook(look);
  const lookSegment = carried ? `.${carried.theme}~${carried.language}` : '';
  const unsigned = `${purpose}.${base64url.encode(subscriptionId)}.${expiresAt}.${linkId}${lookSegment}`;
  const token = `${unsigned}.${await hmacSign(secret, signedText(unsigned))}`;
  return { token, link: { purpose, subscriptionId, expiresAt, linkId, look: carried } };
}

export type SubscriberLinkRejection = 'malformed' | 'bad_signature' | 'expired';

export type SubscriberLinkVerdict =
  | { ok: true; link: SubscriberLink }
  | { ok: false; reason: SubscriberLinkRejection };

/**
 * What a token says, if `secret` signed it and it has not expired at `nowMs`. The signature is
 * checked before anything it says is believed (constant time, crypto.subtle.verify), so an
 * edited purpose, subscription or date is `bad_signature`, never a different link.
 */
export async function verifySubscriberLink(
  secret: string | readonly string[],
  token: string,
  nowMs: number,
): Promise<SubscriberLinkVerdict> {
  const [, purpose, idSegment, expiry, linkId, theme, language, signature] =
    TOKEN.exec(token) ?? [];
  const mac = signature === undefined ? null : base64urlBytes(signature);
  if (mac?.length !== HMAC_BYTES || idSegment === undefined) {
    return { ok: false, reason: 'malformed' };
  }
  const unsigned = token.slice(0, token.length - (signature?.length ?? 0) - 1);
  if (!(await hmacVerifyAny(secret, signedText(unsigned), mac))) {
    return { ok: false, reason: 'bad_signature' };
  }
  const subscriptionId = decodeId(idSegment);
  if (subscriptionId === null || subscriptionId.length > MAX_SUBSCRIPTION_ID_LENGTH) {
    return { ok: false, reason: 'malformed' };
  }
  const expiresAt = Number(expiry);
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    link: {
      purpose: purpose as SubscriberLinkPurpose,
      subscriptionId,
      expiresAt,
      linkId: linkId as string,
      look: theme && language ? { theme, language } : null,
    },
  };
}

/**
 * The look a subscriber page's path names (`/subscription/<token>…`), read before its signature
 * is checked: for what the page wears only, as a funnel page wears the `?theme=` anyone may put in
 * its address. What the link may do is decided by verifySubscriberLink alone.
 */
export function lookInPath(pathname: string): LinkLook | null {
  const prefix = `${SUBSCRIBER_PAGE_PATH}/`;
  if (!pathname.startsWith(prefix)) return null;
  const [, , , , , theme, language] =
    TOKEN.exec(pathname.slice(prefix.length).split('/')[0]!) ?? [];
  return theme && language ? { theme, language } : null;
}

/** The page a token opens, on the worker's own origin (`https://funnel.example.com`). */
export function subscriberLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${SUBSCRIBER_PAGE_PATH}/${token}`;
}
