import type { Context } from 'hono';
import { describeError, logError } from '../../shared/log';
import type { ApiEnv } from '../env';
import { type ApiRefusal, refusal } from './api-error';
import { type GoogleIdentity, type GoogleKeys, verifyGoogleIdToken } from './google-id-token';

export type GoogleCredential =
  | { ok: true; identity: GoogleIdentity }
  | { ok: false; refusal: ApiRefusal };

/**
 * A Google credential is verified here, before the portal makes an account from it (SPEC.md §5).
 * Answers the identity (its verified email among it) when the token is Google's, for our client
 * id, and current; else the refusal.
 */
export async function checkGoogleCredential<E extends ApiEnv>(
  c: Context<E>,
  idToken: string,
  options: { keys: GoogleKeys; now: () => number },
): Promise<GoogleCredential> {
  const refused = (code: Parameters<typeof refusal>[0]) =>
    ({ ok: false, refusal: refusal(code) }) as const;
  const clientId = c.env.GOOGLE_CLIENT_ID;
  if (!clientId) return refused('google_not_configured');
  const verdict = await verifyGoogleIdToken(idToken, {
    keys: options.keys,
    clientId,
    nowSeconds: Math.floor(options.now() / 1000),
  });
  if (verdict.ok) return verdict;
  if (verdict.reason === 'keys_unavailable') {
    logError('google_keys_unavailable', {
      id: c.get('requestId'),
      detail: describeError(verdict.cause),
    });
    return refused('google_keys_unavailable');
  }
  c.get('logFields').detail = verdict.reason;
  return refused('google_token_invalid');
}
