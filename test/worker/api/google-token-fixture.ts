import { env } from 'cloudflare:workers';

/** The client id the worker is configured with in tests (wrangler.toml [vars]). */
export const CLIENT_ID = env.GOOGLE_CLIENT_ID!;

export const NOW_SECONDS = 1_900_000_000;

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function jsonSegment(value: unknown): string {
  return base64Url(new TextEncoder().encode(JSON.stringify(value)));
}

/** A JWK as Google's JWKS endpoint lists it; `kid` names the key in the token header. */
export type GoogleJwk = JsonWebKey & { kid: string };
export interface GoogleKeySet {
  keys: GoogleJwk[];
}

/** An RSA key pair made by the test, standing in for one of Google's signing keys. */
export interface TestSigner {
  kid: string;
  /** The public half as Google's JWKS lists it. */
  jwk: GoogleJwk;
  sign: (claims: Record<string, unknown>, header?: Record<string, unknown>) => Promise<string>;
}

export async function makeSigner(kid: string): Promise<TestSigner> {
  const pair = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const exported = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  const jwk: GoogleJwk = { ...exported, kid, alg: 'RS256', use: 'sig' };
  return {
    kid,
    jwk,
    async sign(claims, header = { alg: 'RS256', kid, typ: 'JWT' }) {
      const signed = `${jsonSegment(header)}.${jsonSegment(claims)}`;
      const signature = await crypto.subtle.sign(
        'RSASSA-PKCS1-v1_5',
        pair.privateKey,
        new TextEncoder().encode(signed),
      );
      return `${signed}.${base64Url(new Uint8Array(signature))}`;
    },
  };
}

export function keySet(...signers: TestSigner[]): GoogleKeySet {
  return { keys: signers.map((signer) => signer.jwk) };
}

/**
 * Stands in for the network in front of Google's JWKS endpoint: each call answers the next of
 * `answers` (the last one again once they run out) and is recorded.
 */
export function jwksFetch(...answers: Array<GoogleKeySet | (() => Response)>) {
  const calls: string[] = [];
  const fetcher = (async (input: RequestInfo | URL) => {
    calls.push(String(input));
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    return typeof answer === 'function' ? answer() : Response.json(answer);
  }) as typeof fetch;
  return { calls, fetch: fetcher };
}

/** The claims of a Google ID token for our client, current at NOW_SECONDS. */
export function googleClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: 'https://accounts.google.com',
    azp: CLIENT_ID,
    aud: CLIENT_ID,
    sub: '110169484474386276334',
    email: 'ada@example.com',
    email_verified: true,
    name: 'Ada Lovelace',
    iat: NOW_SECONDS - 30,
    exp: NOW_SECONDS + 3570,
    ...overrides,
  };
}
