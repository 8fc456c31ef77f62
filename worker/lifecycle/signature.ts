/**
 * The lifecycle events' signature (Stripe's webhook scheme), written once in shared/ since the
 * embedded portal signs with it too: its lifecycle events, and it checks the worker's signed calls
 * of the subscriber's page (shared/api/subscriber-calls.ts).
 */
export * from '../../shared/api/hook-signature';
