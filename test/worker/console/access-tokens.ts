import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/**
 * A Cloudflare Access team made up by the tests: its domain, the console application's AUD
 * tag, a fixed clock, and RS256 key pairs standing in for the team's signing keys, so no test
 * reaches Cloudflare.
 */

export const TEAM = 'https://geofunnel-test.cloudflareaccess.com';
export const CERTS_URL = `${TEAM}/cdn-cgi/access/certs`;
export const AUD = '4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2';
export const NOW_MS = 1_900_000_000_000;
export const NOW = NOW_MS / 1000;
export const KID = 'access-key-1';

/** The bindings of a production console behind this team's Access application. */
export const PRODUCTION = { ENVIRONMENT: 'production', ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUD };

/** An RS256 key pair made by the test, standing in for one of the team's signing keys. */
export interface Signer {
  /** The public half as the team's certs list it. */
  jwk: JWK;
  sign: (claims: Record<string, unknown>) => Promise<string>;
}

export async function makeSigner(kid: string): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey),
  };
}

/** An Access application token's claims (an identity login), current at NOW. */
export function accessClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    aud: [AUD],
    email: 'ada@example.com',
    exp: NOW + 3600,
    iat: NOW - 30,
    nbf: NOW - 30,
    iss: TEAM,
    type: 'app',
    identity_nonce: '6ei69kawdKzMIAPF',
    sub: '7335d417-61da-459d-899c-0a01c76a2f94',
    country: 'US',
    ...overrides,
  };
}

/** The team's signing key, and a stranger's under the same kid: what a forgery is signed with. */
export async function teamAndStranger(): Promise<{ team: Signer; stranger: Signer }> {
  return { team: await makeSigner(KID), stranger: await makeSigner(KID) };
}
