import type { Context } from 'hono';
import { describeError, logError } from '../../shared/log';
import type { AppEnv } from '../env';
import { type ApiRefusal, refusal } from './api-error';
import { type GoogleKeys, verifyGoogleIdToken } from './google-id-token';

/**
 * A Google credential is verified here, before the portal makes an account from it (SPEC.md §5).
 * Answers null when the token is Google's, for our client id, and current.
 */
export async function googleCredentialRefusal(
  c: Context<AppEnv>,
  idToken: string,
  options: { keys: GoogleKeys; now: () => number },
): Promise<ApiRefusal | null> {
  const clientId = c.env.GOOGLE_CLIENT_ID;
  if (!clientId) return refusal('google_not_configured');
  const verdict = await verifyGoogleIdToken(idToken, {
    keys: options.keys,
    clientId,
    nowSeconds: Math.floor(options.now() / 1000),
  });
  if (verdict.ok) return null;
  if (verdict.reason === 'keys_unavailable') {
    logError('google_keys_unavailable', {
      id: c.get('requestId'),
      detail: describeError(verdict.cause),
    });
    return refusal('google_keys_unavailable');
  }
  c.get('logFields').detail = verdict.reason;
  return refusal('google_token_invalid');
}
