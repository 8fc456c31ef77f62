import * as z from 'zod';
import type { ApiCall } from './contract';

/**
 * Closing a charge attempt whose answer never came (ours, beyond SPEC.md §7; docs/product-api.md
 * "Closing an attempt"). Only the worker makes it, server to server, with the visitor's bearer
 * token and the attempt's own Idempotency-Key, when a provider keeps failing a checkout's charge
 * and it must know whether the card was charged before it offers the other provider
 * (worker/provider-routing/stuck-attempt.ts). The product API answers from its own records,
 * without asking the provider again:
 * - `closed: true`: nothing was charged under that key, and from now on nothing will be (a charge
 *   under it, one still on its way included, is refused with 422 `attempt_closed`);
 * - `closed: false`: a charge was made under it (whatever it came to): the call itself, asked
 *   again under its key, will say what.
 */
export const AttemptCloseResponse = z.object({
  data: z.object({ closed: z.boolean() }),
});
export type AttemptCloseResponse = z.infer<typeof AttemptCloseResponse>;

export const ATTEMPT_CLOSE_CALL: ApiCall = {
  method: 'POST',
  path: '/users/me/subscriptions/attempts/close',
  auth: 'bearer',
  request: null,
  response: AttemptCloseResponse,
  timeoutMs: 5_000,
};
