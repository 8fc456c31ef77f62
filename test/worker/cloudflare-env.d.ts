import type { Bindings } from '../../worker/env';

// `env` from cloudflare:workers carries the worker's bindings in these tests.
declare global {
  namespace Cloudflare {
    // biome-ignore lint/suspicious/noEmptyInterface: declaration merging needs an interface.
    interface Env extends Bindings {}
  }
}
