import type { ClickIds } from './click-ids';

/**
 * The first-party ad cookies of SPEC.md §3 Stored keys (_fbc, _fbp, _ttp), set by the worker
 * rather than by the pixels' scripts: a cookie set in an HTTP response from our own origin is not
 * cut to 7 days by Safari's tracking prevention, and exists even when a blocker stops the pixel.
 */
export const AD_COOKIES = { fbc: '_fbc', fbp: '_fbp', ttp: '_ttp' } as const;

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
/** TikTok's _ttp is an opaque id of letters and digits. */
const TTP = /^[A-Za-z0-9_-]{16,64}$/;

export interface AdCookieValues {
  fbc: string | null;
  fbp: string | null;
  ttp: string | null;
}

export interface AdCookiePlan {
  /** The values the page and its events use from now on. */
  values: AdCookieValues;
  /** The cookies to write: new or changed ones only. */
  write: Partial<Record<keyof AdCookieValues, string>>;
}

export interface AdCookieSources {
  /** Epoch ms. */
  now: number;
  /** Ten random digits for _fbp. */
  randomDigits(): string;
  /** An opaque random id for _ttp. */
  randomId(): string;
}

function valid(value: string | undefined, format: RegExp): string | null {
  return value !== undefined && format.test(value) ? value : null;
}

/** The click id a stored _fbc carries (its fourth part, which may itself contain dots). */
function fbclidOf(fbc: string): string {
  return fbc.split('.').slice(3).join('.');
}

/** The stored ad cookies whose values have their network's format; the others as null. */
export function validAdCookies(
  stored: Partial<Record<keyof AdCookieValues, string>>,
): AdCookieValues {
  return { fbc: valid(stored.fbc, FB), fbp: valid(stored.fbp, FB), ttp: valid(stored.ttp, TTP) };
}

/**
 * What the cookies should hold after this request: _fbc for a new fbclid (kept when
 * the URL carries the same one again, so its creation time stays the click's), _fbp and _ttp
 * once per browser. A malformed stored value is replaced.
 */
export function planAdCookies(
  stored: Partial<Record<keyof AdCookieValues, string>>,
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
