import { hex } from '../hex';

/**
 * The signature of a lifecycle event (shared/api/lifecycle.ts LIFECYCLE_SIGNATURE_HEADER), both
 * ways: the worker verifies it, the embedded portal's commands and the tests make it. Stripe's
 * webhook scheme (docs.stripe.com/webhooks/signatures), so a product API that already signs
 * Stripe-style webhooks has nothing new to learn:
 *
 *   Geofunnel-Signature: t=1795334400,v1=5257a869…
 *
 * - `t` is the sender's clock in unix seconds; the signed text is `<t>.<raw body>`, so the time
 *   cannot be changed without the signature failing, and a body is only good near its `t`;
 * - `v1` is the lowercase hex HMAC-SHA256 of that text under the shared secret. While a secret is
 *   rolled the sender signs with both, so several `v1` may come: one that matches is enough;
 * - other schemes (`v0`, or anything later) are skipped, as Stripe's libraries skip them.
 *
 * Runs in workerd and Node alike (WebCrypto): the portal's CLI signs with this very file.
 */

/** Stripe's default tolerance: a signature older or newer than this is refused as stale. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * At most this many `v1` values are tried: the sender has two during a rollover, and each one
 * costs an HMAC, so a header full of them cannot make a request expensive.
 */
const MAX_SIGNATURES = 5;

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;
const text = new TextEncoder();
const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

export interface SignatureHeader {
  /** Unix seconds, as signed. */
  timestamp: number;
  /** The `v1` values, lowercase, in the order sent. */
  signatures: string[];
}

export type HeaderReading = { ok: true; header: SignatureHeader } | { ok: false; detail: string };

/** The header's timestamp and `v1` signatures, or why it cannot be read. */
export function readSignatureHeader(value: string): HeaderReading {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const item of value.split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) return { ok: false, detail: `"${item.trim().slice(0, 20)}" is not key=value` };
    const key = item.slice(0, at).trim();
    const element = item.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== null) return { ok: false, detail: 't given twice' };
      if (!UNIX_SECONDS.test(element)) return { ok: false, detail: 't is not unix seconds' };
      timestamp = Number(element);
    } else if (key === 'v1') {
      if (!HEX_SIGNATURE.test(element)) return { ok: false, detail: 'v1 is not 64 hex digits' };
      signatures.push(element.toLowerCase());
    }
  }
  if (timestamp === null) return { ok: false, detail: 'no t' };
  if (signatures.length === 0) return { ok: false, detail: 'no v1 signature' };
  if (signatures.length > MAX_SIGNATURES) {
    return { ok: false, detail: `more than ${MAX_SIGNATURES} v1 signatures` };
  }
  return { ok: true, header: { timestamp, signatures } };
}

function hmacKey(secret: string, use: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', text.encode(secret), HMAC, false, [use]);
}

function signedText(timestamp: number, body: string): Uint8Array {
  return text.encode(`${timestamp}.${body}`);
}

/** The lowercase hex `v1` of `body` sent at `timestamp` (unix seconds). */
async function signatureOf(secret: string, timestamp: number, body: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    HMAC,
    await hmacKey(secret, 'sign'),
    signedText(timestamp, body) as Uint8Array<ArrayBuffer>,
  );
  return hex(new Uint8Array(mac));
}

/** The whole header value for `body` sent at `timestamp`, signed with each of `secrets`. */
export async function signatureHeaderFor(
  secrets: string | readonly string[],
  timestamp: number,
  body: string,
): Promise<string> {
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  const signed = await Promise.all(keys.map((key) => signatureOf(key, timestamp, body)));
  return [`t=${timestamp}`, ...signed.map((signature) => `v1=${signature}`)].join(',');
}

function bytesOfHex(value: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(value.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * The `v1` of the header that signs `body` under `secret`, or null when none does. Each is
 * checked by crypto.subtle.verify, which compares in constant time: how far a forged signature
 * matched never shows in how long the refusal took.
 */
export async function matchingSignature(
  secret: string,
  header: SignatureHeader,
  body: string,
): Promise<string | null> {
  const key = await hmacKey(secret, 'verify');
  const message = signedText(header.timestamp, body) as Uint8Array<ArrayBuffer>;
  for (const signature of header.signatures) {
    if (await crypto.subtle.verify(HMAC, key, bytesOfHex(signature), message)) return signature;
  }
  return null;
}

/** Whether a signature made at `timestamp` (unix seconds) is neither too old nor too new at `nowMs`. */
export function isFresh(timestamp: number, nowMs: number): boolean {
  return Math.abs(nowMs / 1000 - timestamp) <= SIGNATURE_TOLERANCE_SECONDS;
}

/**
 * When a signature made at `timestamp` stops being fresh (epoch ms): the replay guard remembers
 * it until then, and not a moment longer is needed, since after that it is refused as stale.
 */
export function freshUntil(timestamp: number): number {
  return (timestamp + SIGNATURE_TOLERANCE_SECONDS) * 1000;
}
