import type { ChargeProvider } from '../../shared/charge-outcome';
import { type SignedCookies, VISIT_COOKIE_OPTIONS } from '../middleware/signed-cookies';

/**
 * The visitor's card provider once given (docs/payments.md, "A failing provider routed around"):
 * `gf_pay`, signed for the visitor id like `gf_route` (worker/signing.ts), so a checkout under
 * way is never moved by a change of health, and a visitor cannot write one.
 */

const PIN_COOKIE = 'gf_pay';

export interface ProviderPin {
  provider: ChargeProvider;
}

const PIN = /^(stripe|braintree)$/;

/** The visitor's pin, or null when none was given (or the cookie is not one we signed). */
export async function readPin(cookies: SignedCookies): Promise<ProviderPin | null> {
  const cookie = await cookies.read(PIN_COOKIE);
  if (cookie.state === 'invalid') cookies.reportInvalid(PIN_COOKIE, cookie.reason);
  if (cookie.state !== 'valid') return null;
  const match = PIN.exec(cookie.value);
  if (!match) return null;
  return { provider: match[1] as ChargeProvider };
}

export async function writePin(cookies: SignedCookies, pin: ProviderPin): Promise<void> {
  await cookies.write(PIN_COOKIE, pin.provider, VISIT_COOKIE_OPTIONS);
}
