import {
  CLICK_ID_PARAMS,
  type ClickIdNetwork,
  SOURCES,
  type Source,
  utmValue,
} from '../../shared/routing';
import { type ClickIds, readClickIds } from '../attribution/click-ids';

/**
 * Where a visit came from, taken on its first page and kept for the visit and later returns
 * (the gf_touch cookie, worker/middleware/first-touch.ts): UTM parameters and click ids come only
 * with the ad click, and the routes (worker/routing/) must still know them three screens on.
 *
 * Strict with what a visitor can type into a link: every value is from a fixed list, or a short
 * printable text; anything else counts as absent, never as an error page.
 */

export { SOURCES, type Source };

/**
 * `utm_source` values and what they mean, lower case. Marketers tag links by hand, so the
 * common spellings of each network are one source. A value not here is 'other'.
 */
export const DEFAULT_SOURCE_ALIASES: Readonly<Record<string, Source>> = {
  meta: 'meta',
  facebook: 'meta',
  fb: 'meta',
  ig: 'meta',
  instagram: 'meta',
  messenger: 'meta',
  tiktok: 'tiktok',
  tt: 'tiktok',
  google: 'google',
  adwords: 'google',
  youtube: 'google',
};

/** Hosts of search engines: a visitor referred by one found us, so 'organic'. */
const SEARCH_ENGINES = [
  'google.',
  'bing.com',
  'duckduckgo.com',
  'yahoo.',
  'yandex.',
  'baidu.com',
  'ecosia.org',
  'search.brave.com',
];

const UTM_FIELDS = ['source', 'medium', 'campaign', 'content', 'term'] as const;
type UtmField = (typeof UTM_FIELDS)[number];

export interface FirstTouch {
  source: Source;
  /**
   * The network of the link's click id (clickIdOf), or null: only the network, never the id,
   * which can be hundreds of characters and is the ad cookies' business (ad-cookies.ts).
   */
  click_id: ClickIdNetwork | null;
  /** The link's UTM parameters as tagged (trimmed), or null. */
  utm: Record<UtmField, string | null>;
  /** The entry link's alias (`?r=bf24`), lower case, or null. */
  entry: string | null;
  /** ISO country of the first page, or null. */
  country: string | null;
  /** Epoch ms of the first page. */
  began_at: number;
}

const ENTRY_ALIAS = /^[a-z0-9_-]{1,32}$/;
const COUNTRY = /^[A-Z]{2}$/;

function entryAlias(value: string | null): string | null {
  const lower = value?.trim().toLowerCase();
  return lower && ENTRY_ALIAS.test(lower) ? lower : null;
}

/** The longest host name DNS allows (RFC 1035): anything longer names no site. */
const MAX_HOST_LENGTH = 253;

/** The referrer's host, lower case, or null when there is none or it is ours or not a URL. */
function referrerHost(referrer: string | null, ownHost: string): string | null {
  if (!referrer) return null;
  try {
    const host = new URL(referrer).hostname.toLowerCase();
    if (host.length > MAX_HOST_LENGTH) return null;
    return host && host !== ownHost.toLowerCase() ? host : null;
  } catch {
    return null;
  }
}

function isSearchEngine(host: string): boolean {
  return SEARCH_ENGINES.some((engine) =>
    engine.endsWith('.')
      ? host.startsWith(engine) || host.includes(`.${engine}`)
      : host === engine || host.endsWith(`.${engine}`),
  );
}

/**
 * The network of the link's click id: `fbclid` meta, else `ttclid` tiktok, else `gclid`/
 * `gbraid`/`wbraid` google, else null. sourceOf ranks click ids the same way, so a visit with a
 * click id always has that network as its source (worker/routing/warnings.ts relies on it).
 */
function clickIdOf(clicks: ClickIds): ClickIdNetwork | null {
  for (const network of ['meta', 'tiktok', 'google'] as const) {
    if (CLICK_ID_PARAMS[network].some((param) => clicks[param] !== null)) return network;
  }
  return null;
}

/**
 * The source, in this order: a click id (`fbclid` meta, `ttclid` tiktok, `gclid`/`gbraid`/
 * `wbraid` google); else `utm_source` through the aliases ('other' when unknown); else the
 * referrer (a search engine: organic; another site: referral); else direct.
 */
export function sourceOf(
  params: URLSearchParams,
  referrer: string | null,
  ownHost: string,
  aliases: Readonly<Record<string, Source>> = DEFAULT_SOURCE_ALIASES,
): Source {
  const click = clickIdOf(readClickIds(params));
  if (click !== null) return click;
  const utmSource = utmValue(params.get('utm_source'))?.toLowerCase();
  if (utmSource)
    return Object.hasOwn(aliases, utmSource) ? (aliases[utmSource] ?? 'other') : 'other';
  const host = referrerHost(referrer, ownHost);
  if (host) return isSearchEngine(host) ? 'organic' : 'referral';
  return 'direct';
}

/** The query parameters a first touch reads. */
const TOUCH_PARAMS = new Set([
  ...UTM_FIELDS.map((field) => `utm_${field}`),
  'r',
  'fbclid',
  'ttclid',
  'gclid',
  'gbraid',
  'wbraid',
]);

function decodeQueryPart(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The parameters a first touch reads, each only when the link carries it once and validly
 * percent-encoded. URLSearchParams forgives both (the first of repeated values wins; `%ZZ` stays
 * as typed, a cut UTF-8 sequence becomes U+FFFD), but a link like that was edited by hand or
 * pasted twice, and which value a marketer meant is anyone's guess: it counts as absent, as
 * every value our rules do not recognise does.
 */
export function touchParams(search: string): URLSearchParams {
  const values = new Map<string, string | null>();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const at = pair.indexOf('=');
    const name = decodeQueryPart(at === -1 ? pair : pair.slice(0, at));
    if (name === null || !TOUCH_PARAMS.has(name)) continue;
    const value = decodeQueryPart(at === -1 ? '' : pair.slice(at + 1));
    values.set(name, values.has(name) ? null : value);
  }
  const params = new URLSearchParams();
  for (const [name, value] of values) if (value !== null) params.set(name, value);
  return params;
}

/** The first touch of a visit whose first page is `url`. */
export function takeFirstTouch(request: {
  url: URL;
  referrer: string | null;
  country: string | null;
  now: number;
  aliases?: Readonly<Record<string, Source>>;
}): FirstTouch {
  const params = touchParams(request.url.search);
  const utm = Object.fromEntries(
    UTM_FIELDS.map((field) => [field, utmValue(params.get(`utm_${field}`))]),
  ) as Record<UtmField, string | null>;
  return {
    source: sourceOf(params, request.referrer, request.url.hostname, request.aliases),
    click_id: clickIdOf(readClickIds(params)),
    utm,
    entry: entryAlias(params.get('r')),
    country: request.country && COUNTRY.test(request.country) ? request.country : null,
    began_at: request.now,
  };
}

const COOKIE_VERSION = 1;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}

/**
 * The cookie's value: the first touch as base64url JSON, versioned. A visit without a click id
 * (most of them) writes no `click_id` at all, so the cookie grows only for ad clicks, by about 25
 * characters; a cookie written before the field existed reads as no click id.
 */
export function encodeFirstTouch(touch: FirstTouch): string {
  const { click_id: clickId, ...rest } = touch;
  return toBase64Url(
    JSON.stringify({
      v: COOKIE_VERSION,
      ...rest,
      ...(clickId === null ? {} : { click_id: clickId }),
    }),
  );
}

const CLICK_ID_NETWORKS = Object.keys(CLICK_ID_PARAMS) as ClickIdNetwork[];

/** At most what encodeFirstTouch can make of the longest values, with room to spare. */
const MAX_COOKIE_LENGTH = 2048;

/**
 * A cookie's first touch, or null when it is missing, another version or anything but what
 * encodeFirstTouch wrote: each field is checked as strictly as on the way in, so a forged cookie
 * can carry no value a link could not.
 */
export function decodeFirstTouch(value: string | undefined): FirstTouch | null {
  if (!value || value.length > MAX_COOKIE_LENGTH) return null;
  const text = fromBase64Url(value);
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  const utmRecord = record.utm as Record<string, unknown> | null | undefined;
  if (record.v !== COOKIE_VERSION || typeof utmRecord !== 'object' || utmRecord === null) {
    return null;
  }
  const source = record.source;
  const beganAt = record.began_at;
  if (!(SOURCES as readonly unknown[]).includes(source)) return null;
  if (typeof beganAt !== 'number' || !Number.isSafeInteger(beganAt) || beganAt < 0) return null;
  const utm = {} as Record<UtmField, string | null>;
  for (const field of UTM_FIELDS) {
    const raw = utmRecord[field];
    if (raw !== null && (typeof raw !== 'string' || utmValue(raw) !== raw)) return null;
    utm[field] = raw;
  }
  const entry = record.entry;
  if (entry !== null && (typeof entry !== 'string' || entryAlias(entry) !== entry)) return null;
  const country = record.country;
  if (country !== null && (typeof country !== 'string' || !COUNTRY.test(country))) return null;
  // Absent or null: no click id. Else a network, and the source it makes (sourceOf).
  const clickId = record.click_id ?? null;
  if (
    clickId !== null &&
    (!(CLICK_ID_NETWORKS as unknown[]).includes(clickId) || clickId !== source)
  ) {
    return null;
  }
  return {
    source: source as Source,
    click_id: clickId as ClickIdNetwork | null,
    utm,
    entry,
    country,
    began_at: beganAt,
  };
}
