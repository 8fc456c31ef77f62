/**
 * The paths of the worker's calls about a checkout's card provider (./payment-provider.ts), apart
 * so the page can name them without loading the schema.
 */

/** Where the page says the provider's script or fields did not load. */
export const PROVIDER_UNAVAILABLE_PATH = '/api/payment-provider/unavailable';
/** Where the declined page takes the other provider's form the worker offered. */
export const PROVIDER_SWITCH_PATH = '/api/payment-provider/switch';

/**
 * The query an upsell's page is opened again with once its provider kept failing and the visitor
 * took the other one (islands/UpsellPurchase.tsx): the card on file stays with the provider that
 * keeps it, so the page asks for the card again. The page's links and forms do not carry it on.
 */
export const CARD_AGAIN_QUERY = { name: 'card', value: 'again' } as const;
