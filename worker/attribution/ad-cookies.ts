import type { ClickIds } from './click-ids';
import { cookieValues } from './cookie-header';

/**
 * The first-party ad cookies of SPEC.md §3 Stored keys (_fbc, _fbp, _ttp), set by the worker
 * rather than by the pixels' scripts: a cookie set in an HTTP response from our own origin is not
 * cut to 7 days by Safari's tracking prevention, and exists even when a blocker stops the pixel.
 */
export const AD_COOKIES = { fbc: '_fbc', fbp: '_fbp', ttp: '_ttp' } as const;
export type AdCookieName = keyof typeof AD_COOKIES;

/** Meta's pixel keeps _fbc and _fbp 90 days; TikTok's pixel keeps _ttp 13 months. */
export const AD_COOKIE_MAX_AGE = {
  fbc: 90 * 24 * 60 * 60,
  fbp: 90 * 24 * 60 * 60,
  ttp: 390 * 24 * 60 * 60,
} as const;

/**
 * Meta's format `fb.<subdomainIndex>.<creationTime ms>.<value>`. The subdomain index is 1: the
 * cookie is set for the host that serves the funnel (Meta's pixel uses 1 for `example.com`).
 */
const FB = /^fb\.[0-2]\.\d{10,16}\.\S+$/;
/**
 * The _ttp TikTok's pixel writes: a ULID, `_.tt.`, a digit, and sometimes `.<ms>`
 * (`01JV8BFN75M3CKD94GVAWSG07T_.tt.1`, `…_.tt.1.1790477313544`).
 */
const TTP_FROM_PIXEL = /^[0-9A-Z]{26}_\.tt\.\d(?:\.\d{10,16})?$/;
/**
 * Any _ttp we take as TikTok's opaque id: the pixel's, ours (32 hex digits), and whatever form
 * TikTok writes next, as long as it is a token of letters, digits and the punctuation of ids
 * (dots, dashes, base64's `+/=`). Never `;`, `,`, spaces, quotes, markup or control characters,
 * and at most 256 characters: the server events' cap (worker/collector/server-context.ts).
 */
const TTP = /^[A-Za-z0-9._~:+/=-]{16,256}$/;

export interface AdCookieValues {
  fbc: string | null;
  fbp: string | null;
  ttp: string | null;
}

/** Every value the browser sent for each ad cookie, in the `Cookie` header's order. */
export type StoredAdCookies = Partial<Record<AdCookieName, readonly string[]>>;

export interface AdCookiePlan {
  /** The values the page and its events use from now on. */
  values: AdCookieValues;
  /** The cookies to write: new or changed ones only. */
  write: Partial<Record<AdCookieName, string>>;
}

export interface AdCookieSources {
  /** Epoch ms. */
  now: number;
  /** Ten random digits for _fbp. */
  randomDigits(): string;
  /** An opaque random id for _ttp. */
  randomId(): string;
}

/** The ad cookies of a request's `Cookie` header, every value of each (cookie-header.ts). */
export function storedAdCookies(cookieHeader: string | undefined): StoredAdCookies {
  return {
    fbc: cookieValues(cookieHeader, AD_COOKIES.fbc),
    fbp: cookieValues(cookieHeader, AD_COOKIES.fbp),
    ttp: cookieValues(cookieHeader, AD_COOKIES.ttp),
  };
}

function firstOf(values: readonly string[] | undefined, format: RegExp): string | null {
  return values?.find((value) => format.test(value)) ?? null;
}

/** The click id a stored _fbc carries (its fourth part, which may itself contain dots). */
function fbclidOf(fbc: string): string {
  return fbc.split('.').slice(3).join('.');
}

/**
 * The stored ad cookies whose values have their network's format; the others as null. Of two
 * _ttp cookies (TikTok's pixel writes its own on the registrable domain, beside a host-only one
 * the worker wrote before it knew the pixel's format), the pixel's wins: that id is the one
 * TikTok's pixel reports, and ours only stands in for a pixel that never ran.
 */
export function validAdCookies(stored: StoredAdCookies): AdCookieValues {
  return {
    fbc: firstOf(stored.fbc, FB),
    fbp: firstOf(stored.fbp, FB),
    ttp: firstOf(stored.ttp, TTP_FROM_PIXEL) ?? firstOf(stored.ttp, TTP),
  };
}

/**
 * What the cookies should hold after this request: _fbc for a new fbclid (kept when
 * the URL carries the same one again, so its creation time stays the click's), _fbp and _ttp
 * once per browser. A malformed stored value is replaced; a _ttp the browser holds in any
 * acceptable form, the pixel's above all, never is.
 */
export function planAdCookies(
  stored: StoredAdCookies,
  clicks: Pick<ClickIds, 'fbclid'>,
  sources: AdCookieSources,
): AdCookiePlan {
  const write: AdCookiePlan['write'] = {};
  let { fbc, fbp, ttp } = validAdCookies(stored);
  if (clicks.fbclid !== null && (fbc === null || fbclidOf(fbc) !== clicks.fbclid)) {
    fbc = `fb.1.${sources.now}.${clicks.fbclid}`;
    write.fbc = fbc;
  }
  if (fbp === null) {
    fbp = `fb.1.${sources.now}.${sources.randomDigits()}`;
    write.fbp = fbp;
  }
  if (ttp === null) {
    ttp = sources.randomId();
    write.ttp = ttp;
  }
  return { values: { fbc, fbp, ttp }, write };
}

/** Randomness from WebCrypto for planAdCookies. */
export function cryptoSources(now: number): AdCookieSources {
  return {
    now,
    randomDigits: () => {
      // Meta's pixel puts a random integer there; 32 bits, written as ten digits.
      const [value = 0] = crypto.getRandomValues(new Uint32Array(1));
      return String(value).padStart(10, '0');
    },
    randomId: () => crypto.randomUUID().replaceAll('-', ''),
  };
}
