import type { SignedCookies } from '../request/cookies';
import { otherProviderOffered } from './cascade';
import { readPin } from './provider-pin';

/**
 * Whether 'Payment declined' offers this visitor the other provider's form: the pin the worker
 * signed says a decline that provider may approve came, and the one move is not spent. The page
 * shows what this says; the switch (./provider-routes.ts) and the charge gate check it again.
 */
export async function otherProviderOfferedTo(cookies: SignedCookies): Promise<boolean> {
  return otherProviderOffered(await readPin(cookies)) !== null;
}
