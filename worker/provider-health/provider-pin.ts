import type { ChargeProvider } from '../../shared/charge-outcome';
import { type SignedCookies, VISIT_COOKIE_OPTIONS } from '../request/cookies';

/**
 * The visitor's card provider once given (docs/payments.md, "A failing provider routed around"):
 * `gf_pay`, signed for the visitor id like `gf_route` (worker/signing.ts), so a checkout under
 * way is never moved by a change of health, and a visitor cannot write one. Beside the provider
 * it keeps where the one move to the other provider stands (the declined page's offer,
 * ./cascade.ts):
 * - `none`: no decline has offered it yet;
 * - `offered`: a decline the other provider may approve (shared/charge-next-step.ts) came on the
 *   pinned provider: the declined page offers the other's form;
 * - `used`: the visitor moved, the pin now names the other provider;
 * - `closed`: a hard decline, a fraud block or a 3-D Secure challenge came: no move at all.
 */

const PIN_COOKIE = 'gf_pay';

const CASCADE_STATES = ['none', 'offered', 'used', 'closed'] as const;
export type CascadeState = (typeof CASCADE_STATES)[number];

export interface ProviderPin {
  provider: ChargeProvider;
  cascade: CascadeState;
}

const PIN = /^(stripe|braintree):(none|offered|used|closed)$/;

/** The visitor's pin, or null when none was given (or the cookie is not one we signed). */
export async function readPin(cookies: SignedCookies): Promise<ProviderPin | null> {
  const cookie = await cookies.read(PIN_COOKIE);
  if (cookie.state === 'invalid') cookies.reportInvalid(PIN_COOKIE, cookie.reason);
  if (cookie.state !== 'valid') return null;
  const match = PIN.exec(cookie.value);
  if (!match) return null;
  return { provider: match[1] as ChargeProvider, cascade: match[2] as CascadeState };
}

export async function writePin(cookies: SignedCookies, pin: ProviderPin): Promise<void> {
  await cookies.write(PIN_COOKIE, `${pin.provider}:${pin.cascade}`, VISIT_COOKIE_OPTIONS);
}
