import { useSyncExternalStore } from 'react';

/**
 * The console's stores: module-level values with get/set/subscribe, read in components through
 * useStore (React's useSyncExternalStore). It is nanostores' shape without nanostores: the
 * funnel's islands use nanostores, and the console importing a different part of it made Rollup
 * split the funnel's shared chunks anew (every funnel page 0.2–0.7 KB brotli heavier, measured),
 * while React alone is already a chunk of its own.
 */
export interface Atom<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

/** Each store's way back to its first value (restartStores). */
const restarts = new Set<() => void>();

export function atom<T>(initial: T): Atom<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const store: Atom<T> = {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  restarts.add(() => store.set(initial));
  return store;
}

/**
 * Every store back to its first value, as a console that opens anew holds them. The unit files
 * share a thread's modules (vitest.config.ts), so each file starts so (test/unit/fresh-file.ts):
 * a review left approval-gated by one file's last test had the next file's publish form asking
 * for a reason to break the glass.
 */
export function restartStores(): void {
  for (const restart of restarts) restart();
}

/** A store's value in a component, which renders again when it changes. */
export function useStore<T>(store: Atom<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
