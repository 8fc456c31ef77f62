import type { ReadableAtom } from 'nanostores';
import { useSyncExternalStore } from 'react';

/**
 * Reads a store whose work (a timer, a lookup, listeners) starts in its `onMount`, so that the
 * work starts when the island has committed and stops when it goes, as an effect would.
 * `useStore` of @nanostores/react cannot: it calls `get()` while rendering, and `get()` on a
 * store nobody listens to mounts it for a second. That would start the work on the worker, and
 * in the browser during a hydration render React may throw away, before the first render has
 * matched the server's HTML. Rendering reads `value`, which mounts nothing; only React's
 * subscription, after commit, is a listener.
 *
 * For atoms and maps only: they hold their value without a listener (a computed or persisted
 * store fills it on mount, which this never does before commit).
 */
export function useWorkingStore<Value>($store: ReadableAtom<Value>): Value {
  const read = () => $store.value as Value;
  // The work usually writes as it starts, before React's listener is added: React compares the
  // value again once subscribed and renders what the work wrote.
  return useSyncExternalStore((changed) => $store.listen(changed), read, read);
}
