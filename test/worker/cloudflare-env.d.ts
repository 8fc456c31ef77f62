import type { Bindings } from '../../worker/env';

// `env` from cloudflare:workers carries the worker's bindings in these tests.
declare global {
  namespace Cloudflare {
    interface Env extends Bindings {}
  }
}
