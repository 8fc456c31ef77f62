/**
 * The reasons for leaving a save offer's confirm may ask (shared/config/content.ts
 * `saveOffer.reasons`; docs/marketers.md, "The save offer before a cancel"): a short list read at
 * a glance, each under a key the results count it by and the cancel sends the product API
 * (shared/api/subscriber-calls.ts). Kept apart from the schema, so the console's browser code
 * reads them without zod.
 */

/** At most this many reasons. */
export const SAVE_OFFER_REASONS_MAX = 8;

/** A reason's key: lower case, digits and `_`, starting with a letter (`too_expensive`). */
export const REASON_KEY = /^[a-z][a-z0-9_]{0,39}$/;
