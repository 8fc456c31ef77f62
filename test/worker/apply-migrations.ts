import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// The embedded portal's schema (portal/migrations) and the collector's
// (worker/collector/migrations), as `npm start` applies them locally.
await applyD1Migrations(env.PORTAL_DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.EVENTS_DB, env.EVENTS_MIGRATIONS);
