/**
 * What each secret of the worker (SECRETS in worker/env.ts) looks like when it is right, so a
 * value pasted in the wrong place (a Stripe publishable key for the restricted one, a Google key
 * cut short) is found before a visitor or a provider finds it. Cloudflare never gives a secret's
 * value back, so each place that does see values checks them against this one table:
 * `npm run doctor` (the `.dev.vars` file, the file given to `wrangler secret bulk`) and the
 * deployed worker's own cron (worker/scheduled.ts). Only a secret's name and its shape's
 * description are ever printed, never the value.
 *
 * Strict where a wrong value surely fails (a provider's fixed prefix or length), tolerant where
 * providers vary (Stripe's secret keys work where a restricted one is asked for; Meta's and
 * TikTok's tokens have no published length).
 */

export interface SecretShape {
  /** What a right value looks like, in words an operator acts on: never the value itself. */
  description: string;
  fits: (value: string) => boolean;
}

/**
 * A key the worker signs or verifies HMAC-SHA256 with, used as its text: docs/operate.md makes
 * each with `openssl rand -base64 32` (44 characters). Shorter than the hash's 32 bytes is a weak
 * key; a space or line break inside is a paste gone wrong (wrangler trims only the end).
 */
const SIGNING_KEY: SecretShape = {
  description: 'at least 32 characters without spaces or line breaks (openssl rand -base64 32)',
  fits: (value) => value.length >= 32 && !/\s/.test(value),
};

/** A shape of a value the worker trims before use, as the providers' keys are. */
function trimmed(description: string, pattern: RegExp): SecretShape {
  return { description, fits: (value) => pattern.test(value.trim()) };
}

/** Every Google Maps Platform API key: `AIza` and 35 more characters. */
const GOOGLE_API_KEY = trimmed(
  'a Google API key: AIza followed by 35 letters, digits, - or _',
  /^AIza[0-9A-Za-z_-]{35}$/,
);

export const SECRET_SHAPES = {
  // Stripe answers card.fingerprint to a secret or restricted key only, never to a publishable
  // `pk_` one (worker/checkout/charge-call.ts).
  STRIPE_FINGERPRINT_KEY: trimmed(
    'a Stripe restricted key: rk_live_… or rk_test_… (a secret key, sk_…, works too)',
    /^(?:rk|sk)_(?:live|test)_[0-9A-Za-z]+$/,
  ),
  GEOCODING_API_KEY: GOOGLE_API_KEY,
  STATIC_MAPS_API_KEY: GOOGLE_API_KEY,
  CONSOLE_PREVIEW_KEY: SIGNING_KEY,
  COOKIE_SIGNING_KEY: SIGNING_KEY,
  RESUME_LINK_KEY: SIGNING_KEY,
  LIFECYCLE_HMAC_KEY: SIGNING_KEY,
  SUBSCRIBER_LINK_KEY: SIGNING_KEY,
  ALERTS_HMAC_KEY: SIGNING_KEY,
  AMPLITUDE_API_KEY: trimmed(
    'an Amplitude project API key: 32 hexadecimal digits',
    /^[0-9a-fA-F]{32}$/,
  ),
  META_ACCESS_TOKEN: trimmed(
    'a Meta access token: EAA followed by letters and digits',
    /^EAA[0-9A-Za-z]+$/,
  ),
  TIKTOK_ACCESS_TOKEN: trimmed(
    'a TikTok Events API access token: at least 32 letters and digits',
    /^[0-9A-Za-z]{32,}$/,
  ),
} as const satisfies Record<string, SecretShape>;

export type ShapedSecret = keyof typeof SECRET_SHAPES;

/** A secret whose value is not of its shape: its name and the shape, never the value. */
export interface MalformedSecret {
  name: ShapedSecret;
  expected: string;
}

/**
 * The secrets among `values` (an environment, or a file of them) that are set but not of their
 * shape. An empty value is unset, as the worker reads it; names without a shape are not secrets.
 */
export function malformedSecrets(
  values: Readonly<Partial<Record<ShapedSecret, unknown>>>,
): MalformedSecret[] {
  const malformed: MalformedSecret[] = [];
  for (const [name, shape] of Object.entries(SECRET_SHAPES) as [ShapedSecret, SecretShape][]) {
    const value = values[name];
    if (typeof value === 'string' && value !== '' && !shape.fits(value)) {
      malformed.push({ name, expected: shape.description });
    }
  }
  return malformed;
}
