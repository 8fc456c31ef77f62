import { describeError, logError } from '../../shared/log';
import type { Note } from '../http/answer';
import { type ApiRefusal, refusal } from '../http/api-json';
import { type GoogleIdentity, type GoogleKeys, verifyGoogleIdToken } from './google-id-token';

export type GoogleCredential =
  | { ok: true; identity: GoogleIdentity }
  | { ok: false; refusal: ApiRefusal };

/**
 * A Google credential is verified here, before the portal makes an account from it (SPEC.md §5).
 * Answers the identity (its verified email among it) when the token is Google's, for our client
 * id (`clientId`, the GOOGLE_CLIENT_ID binding), and current; else the refusal, logged under the
 * request's id and noted on its log line.
 */
export async function checkGoogleCredential(
  request: { clientId: string | undefined; id: string; note: Note },
  idToken: string,
  options: { keys: GoogleKeys; now: () => number },
): Promise<GoogleCredential> {
  const refused = (code: Parameters<typeof refusal>[0]) =>
    ({ ok: false, refusal: refusal(code) }) as const;
  const { clientId } = request;
  if (!clientId) return refused('google_not_configured');
  const verdict = await verifyGoogleIdToken(idToken, {
    keys: options.keys,
    clientId,
    nowSeconds: Math.floor(options.now() / 1000),
  });
  if (verdict.ok) return verdict;
  if (verdict.reason === 'keys_unavailable') {
    logError('google_keys_unavailable', {
      id: request.id,
      detail: describeError(verdict.cause),
    });
    return refused('google_keys_unavailable');
  }
  request.note('detail', verdict.reason);
  return refused('google_token_invalid');
}
