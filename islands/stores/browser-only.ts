/** workerd names itself here; browsers and Node do not. */
export const ON_WORKER = globalThis.navigator?.userAgent === 'Cloudflare-Workers';

/**
 * ARCHITECTURE.md: never write a store on the worker. Module scope there is shared by every
 * request an isolate serves, so a write during server rendering would leak one visitor's state
 * into another's page. On the worker, writes throw.
 */
export function browserOnly<S extends { set: unknown; setKey?: unknown }>(
  store: S,
  name: string,
): S {
  if (!ON_WORKER) return store;
  const refuse = () => {
    throw new Error(
      `Store ${name} was written on the worker; stores are written in the browser only`,
    );
  };
  store.set = refuse;
  // An atom has no setKey; a map has both.
  if ('setKey' in store) store.setKey = refuse;
  return store;
}
