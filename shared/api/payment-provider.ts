import * as z from 'zod';
import { CARD_PROVIDERS } from './contract';

/**
 * The worker's own calls about the card provider of a checkout (worker/provider-health/), beside
 * the §7 table: not the product API's. Their paths are in ./payment-provider-paths.ts.
 *
 * - `POST /api/payment-provider/unavailable` {@link ProviderUnavailableReport}: the page says the
 *   provider's script or fields did not load. Counted toward the provider's health only for a
 *   visitor the worker gave that provider, at most once an hour per visitor and three times per
 *   address (a bot must not push traffic off a provider). Answers 202 with no body.
 * - `POST /api/payment-provider/switch` (no fields): the declined page's "Pay with another form",
 *   allowed once, only when the worker offered it after a decline the other provider may approve.
 *   Answers 200 {@link ProviderSwitchAnswer}, else 409 `provider_switch_not_offered`.
 */

export const ProviderUnavailableReport = z.object({ provider: z.enum(CARD_PROVIDERS) });
export type ProviderUnavailableReport = z.infer<typeof ProviderUnavailableReport>;

export const ProviderSwitchAnswer = z.object({ payment_provider: z.enum(CARD_PROVIDERS) });
export type ProviderSwitchAnswer = z.infer<typeof ProviderSwitchAnswer>;
