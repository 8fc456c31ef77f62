import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { describeError, logError } from '../log';
import { type ApiRefusal, refusal } from './api-error';
import { type GoogleKeySet, verifyGoogleIdToken } from './google-id-token';
import type { GoogleKeySource } from './google-keys';

async function keysOrNull(
  c: Context<AppEnv>,
  source: GoogleKeySource,
  refresh: boolean,
): Promise<GoogleKeySet | null> {
  try {
    return await source({ refresh });
  } catch (error) {
    logError('google_keys_unavailable', {
      id: c.get('requestId'),
      detail: describeError(error),
    });
    return null;
  }
}

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
  const verify = async (keys: GoogleKeySet) =>
    verifyGoogleIdToken(idToken, { keys, clientId, nowSeconds: Math.floor(options.now() / 1000) });
  const keys = await keysOrNull(c, options.keys, false);
  if (!keys) return refusal('google_keys_unavailable');
  let verdict = await verify(keys);
  if (!verdict.ok && verdict.reason === 'unknown_key') {
    const refreshed = await keysOrNull(c, options.keys, true);
    if (!refreshed) return refusal('google_keys_unavailable');
    verdict = await verify(refreshed);
  }
  if (verdict.ok) return null;
  c.get('logFields').detail = verdict.reason;
  return refusal('google_token_invalid');
}
