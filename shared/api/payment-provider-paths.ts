/**
 * The paths of the worker's calls about a checkout's card provider (./payment-provider.ts), apart
 * so the page can name them without loading the schema.
 */

/** Where the page says the provider's script or fields did not load. */
export const PROVIDER_UNAVAILABLE_PATH = '/api/payment-provider/unavailable';
/** Where the declined page takes the other provider's form the worker offered. */
export const PROVIDER_SWITCH_PATH = '/api/payment-provider/switch';
