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

export function atom<T>(initial: T): Atom<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
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
}

/** A store's value in a component, which renders again when it changes. */
export function useStore<T>(store: Atom<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
