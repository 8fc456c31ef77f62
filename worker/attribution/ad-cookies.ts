import { type ClickIds, isClickId } from './click-ids';
import { cookieValues } from './cookie-header';

/**
 * The first-party ad cookies of SPEC.md §3 Stored keys (_fbc, _fbp, _ttp), set by the worker
 * rather than by the pixels' scripts: a cookie set in an HTTP response from our own origin is not
 * cut to 7 days by Safari's tracking prevention, and exists even when a blocker stops the pixel.
 *
 * _gf_ttclid keeps TikTok's click id of SPEC.md §3's URL parameters as _fbc keeps Meta's, so a
 * return visit, or the browser a resume link opens in (worker/resume/), still names the click to
 * the Events API. Our own name: TikTok's pixel keeps the click in a `ttclid` cookie of its own,
 * which ours must neither replace nor stand beside under the same name.
 */
export const AD_COOKIES = { fbc: '_fbc', fbp: '_fbp', ttp: '_ttp', ttclid: '_gf_ttclid' } as const;
export type AdCookieName = keyof typeof AD_COOKIES;

/**
 * Meta's pixel keeps _fbc and _fbp 90 days; TikTok's pixel keeps _ttp 13 months. A ttclid is
 * kept 28 days from the click: TikTok credits a click only within the click-through window set
 * in its Attribution Manager, 28 days at the longest, so an older one would match nothing.
 */
export const AD_COOKIE_MAX_AGE = {
  fbc: 90 * 24 * 60 * 60,
  fbp: 90 * 24 * 60 * 60,
  ttp: 390 * 24 * 60 * 60,
  ttclid: 28 * 24 * 60 * 60,
} as const;

/**
 * Which cookies the pixels' scripts read too (not HttpOnly). Only the worker reads _gf_ttclid
 * (TikTok's pixel reads the click off the URL and keeps its own), so no script is given it.
 */
export const AD_COOKIE_HTTP_ONLY = { fbc: false, fbp: false, ttp: false, ttclid: true } as const;

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
  /** The last TikTok click id a URL carried, within its 28 days. */
  ttclid: string | null;
}

/** Where the ad tools may not run: no ad cookie is read, kept or written. */
export const NO_AD_COOKIES: Readonly<AdCookieValues> = Object.freeze({
  fbc: null,
  fbp: null,
  ttp: null,
  ttclid: null,
});

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
    ttclid: cookieValues(cookieHeader, AD_COOKIES.ttclid),
  };
}

function firstOf(
  values: readonly string[] | undefined,
  valid: (value: string) => boolean,
): string | null {
  return values?.find(valid) ?? null;
}

const matching = (format: RegExp) => (value: string) => format.test(value);

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
    fbc: firstOf(stored.fbc, matching(FB)),
    fbp: firstOf(stored.fbp, matching(FB)),
    ttp: firstOf(stored.ttp, matching(TTP_FROM_PIXEL)) ?? firstOf(stored.ttp, matching(TTP)),
    ttclid: firstOf(stored.ttclid, isClickId),
  };
}

/**
 * What the cookies should hold after this request: _fbc and _gf_ttclid for a new fbclid or
 * ttclid (kept when the URL carries the same one again, so their lifetime runs from the click),
 * _fbp and _ttp once per browser. A malformed stored value is replaced; a _ttp the browser holds
 * in any acceptable form, the pixel's above all, never is.
 */
export function planAdCookies(
  stored: StoredAdCookies,
  clicks: Pick<ClickIds, 'fbclid' | 'ttclid'>,
  sources: AdCookieSources,
): AdCookiePlan {
  const write: AdCookiePlan['write'] = {};
  let { fbc, fbp, ttp, ttclid } = validAdCookies(stored);
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
  if (clicks.ttclid !== null && clicks.ttclid !== ttclid) {
    ttclid = clicks.ttclid;
    write.ttclid = ttclid;
  }
  return { values: { fbc, fbp, ttp, ttclid }, write };
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
