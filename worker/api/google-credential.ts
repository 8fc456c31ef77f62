import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { logError } from '../log';
import { type ApiRefusal, refusal } from './api-error';
import { verifyGoogleIdToken } from './google-id-token';
import type { GoogleKeySource } from './google-keys';

/**
 * Issue 4: a Google credential is verified here, before the portal makes an account from it.
 * Answers null when the token is Google's, for our client id, and current.
 */
export async function googleCredentialRefusal(
  c: Context<AppEnv>,
  idToken: string,
  options: { keys: GoogleKeySource; now: () => number },
): Promise<ApiRefusal | null> {
  const clientId = c.env.GOOGLE_CLIENT_ID;
  if (!clientId) return refusal('google_not_configured');
  let keys: Awaited<ReturnType<GoogleKeySource>>;
  try {
    keys = await options.keys();
  } catch (error) {
    logError('google_keys_unavailable', {
      id: c.get('requestId'),
      detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return refusal('google_keys_unavailable');
  }
  const verdict = await verifyGoogleIdToken(idToken, {
    keys,
    clientId,
    nowSeconds: Math.floor(options.now() / 1000),
  });
  if (verdict.ok) return null;
  c.get('logFields').detail = verdict.reason;
  return refusal('google_token_invalid');
}
