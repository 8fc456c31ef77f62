/**
 * The `gf_x` cookie: the variant of each experiment a visitor was exposed to, pinned so they keep
 * it when marketers change the weights (until then the variant is the hash's, assign.ts, and
 * nothing is stored). A value is a list of `<experiment id>~<variant key>.` entries, oldest
 * first, e.g. `split~lp11ch8/vc.pw-intro~b.`.
 *
 * The cookie holds the value signed for the visitor id (worker/request/cookies.ts): this
 * file reads and writes the value inside, once the signature held.
 *
 * Every character is one RFC 6265 allows in a cookie value. hono/cookie's setCookie writes the
 * value through encodeURIComponent, which leaves ids, keys, '~' and '.' as they are and makes a
 * '/' `%2F`; getCookie decodes it again. The size cap counts the encoded bytes.
 *
 * A cookie comes from the browser and can be anything: parsePins keeps the entries it can read
 * and never throws. Each entry ends with its '.', so a value cut short loses only the entry it
 * was cut in, never reads as a shorter variant key.
 */

export const PINS_COOKIE = 'gf_x';

/**
 * `gf_ax`: a signed-in visitor's pins of the layers with a price test, which follow the account
 * (worker/experiments/config/evaluate.ts). The same value as `gf_x`, signed for the account
 * (accountSubject) instead of the visitor: another account's pins, or the browser's own from
 * before signing in, do not pass for this account's.
 */
export const ACCOUNT_PINS_COOKIE = 'gf_ax';

/** What an account's pins are signed for: never a visitor's uuid. */
export function accountSubject(userId: string): string {
  return `account:${userId}`;
}

/** The experiments section's ids (shared/config/fields.ts `slug`). */
const EXPERIMENT_ID = /^[a-z0-9][a-z0-9_-]{0,47}$/;
/** The experiments section's variant keys (shared/config/experiments.ts). */
const VARIANT_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/;
const VARIANT_KEY_MAX = 48;

/**
 * At most this many pins are written, and their value stays under PINS_MAX_BYTES: the newest
 * kept, the oldest dropped first. That is safe. A dropped pin only falls back to the hash, which
 * gives the visitor the very variant they were pinned to unless the weights changed since (the
 * seed is the experiment's for life); the exposure store keeps one row per experiment and
 * visitor, their first, so they are never counted twice; and the oldest pins are of the
 * experiments exposed longest ago, the likeliest to have ended and drained. A visitor is in at
 * most one experiment per layer at a time, five at once: thirty pins hold six generations of
 * experiments in every layer.
 */
const PINS_MAX_ENTRIES = 30;
/**
 * Browsers keep a cookie of up to 4096 bytes, name and attributes included, and send every one
 * of a site's on each request; 1,500 leaves room for the others.
 */
const PINS_MAX_BYTES = 1_500;
/** No value we write is longer: a longer one is read only this far. */
const PINS_READ_MAX = 4_096;

function isPin(experiment: string, variant: string): boolean {
  return (
    EXPERIMENT_ID.test(experiment) && variant.length <= VARIANT_KEY_MAX && VARIANT_KEY.test(variant)
  );
}

/**
 * The pins of a `gf_x` value (as getCookie returns it, decoded), by experiment id, oldest first.
 * An entry that is not a valid experiment id and variant key is skipped; for an experiment named
 * twice the first entry counts.
 */
export function parsePins(value: string | undefined): Map<string, string> {
  const pins = new Map<string, string>();
  if (value === undefined) return pins;
  const text = value.length > PINS_READ_MAX ? value.slice(0, PINS_READ_MAX) : value;
  let start = 0;
  for (let end = text.indexOf('.'); end !== -1; end = text.indexOf('.', start)) {
    const tilde = text.indexOf('~', start);
    if (tilde !== -1 && tilde < end) {
      const experiment = text.slice(start, tilde);
      const variant = text.slice(tilde + 1, end);
      if (isPin(experiment, variant) && !pins.has(experiment)) pins.set(experiment, variant);
    }
    start = end + 1;
  }
  return pins;
}

/**
 * The `gf_x` value of the pins, in the map's order (a Map keeps insertion order: add a new pin
 * with set, and it is the newest). At most PINS_MAX_ENTRIES, under PINS_MAX_BYTES as setCookie
 * writes it: over either, the oldest are dropped. A pin parsePins could not read back is left
 * out. An empty string when nothing is left.
 */
export function serializePins(pins: ReadonlyMap<string, string>): string {
  const entries: string[] = [];
  for (const [experiment, variant] of pins) {
    if (isPin(experiment, variant)) entries.push(`${experiment}~${variant}.`);
  }
  let bytes = 0;
  let first = entries.length;
  while (first > 0 && entries.length - first < PINS_MAX_ENTRIES) {
    const size = encodeURIComponent(entries[first - 1]!).length;
    if (bytes + size >= PINS_MAX_BYTES) break;
    bytes += size;
    first--;
  }
  return entries.slice(first).join('');
}
