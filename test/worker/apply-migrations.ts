import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// The embedded portal's schema (portal/migrations), as `npm start` applies it locally.
await applyD1Migrations(env.PORTAL_DB, env.TEST_MIGRATIONS);
