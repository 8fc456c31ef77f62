import type { D1Migration } from 'cloudflare:test';
import type { Bindings } from '../../worker/env';

// `env` from cloudflare:workers carries the worker's bindings in these tests.
declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      PORTAL_DB: D1Database;
      TEST_MIGRATIONS: D1Migration[];
      EVENTS_MIGRATIONS: D1Migration[];
      CONFIG_MIGRATIONS: D1Migration[];
    }
  }
}
