import type { GoogleProblem } from '../../shared/api/error-text';
import type { CredentialResponse } from './google-identity';

/**
 * What the GIS callback does with its answer (SPEC.md §5 Google sign-in): no credential is a
 * problem of its own; with one, the sign-in runs (it shows its own failures); anything thrown on
 * the way is 'unexpected' (SPEC.md §8).
 */
export async function handleGoogleCredential(
  response: CredentialResponse | undefined,
  signIn: (credential: string) => Promise<unknown>,
  report: (problem: GoogleProblem) => void,
): Promise<void> {
  try {
    const credential = response?.credential;
    if (typeof credential !== 'string' || credential === '') {
      report('no_credential');
      return;
    }
    await signIn(credential);
  } catch {
    report('unexpected');
  }
}
