import { persistentMap } from '@nanostores/persistent';
import { map, onNotify } from 'nanostores';
import { browserOnly, ON_WORKER } from './browser-only';
import { PERSIST_PREFIX } from './persisted-key';

export { PERSIST_PREFIX };

function decode(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // A value we cannot read (edited by hand, older format) is dropped, not thrown.
    return undefined;
  }
}

/**
 * A state slice that survives a reload (SPEC.md §3 "Persisted slices": app, events, plans,
 * signup, map, checkout). Each field is one JSON value in localStorage.
 */
export function persistedSlice<T extends Record<string, unknown>>(name: string, initial: T) {
  // The worker renders islands with the initial values and has no storage to restore from.
  if (ON_WORKER) return browserOnly(map<T>(initial), name);
  const store = persistentMap<T>(`${PERSIST_PREFIX}${name}:`, initial, {
    encode: JSON.stringify,
    decode: decode as (raw: string) => T[keyof T],
  });
  // persistentMap restores a dropped value as `undefined`, and a field another tab removes (or
  // all of them, when it clears storage) goes missing through its own internal setters. Either
  // way the field gets its initial value back before anyone hears of the change, so the slice
  // keeps its declared shape: `$checkout.get().cardholderName.trim()` never meets undefined.
  const withInitials = (value: T): T => {
    const missing = (Object.keys(initial) as (keyof T)[]).filter((key) => value[key] === undefined);
    if (missing.length === 0) return value;
    const restored = { ...value };
    for (const key of missing) restored[key] = initial[key];
    return restored;
  };
  const setAll = store.set;
  store.set = (value) => setAll(withInitials(value));
  onNotify(store, () => {
    // Before the listeners run: nanostores hands them `store.value` right after this hook.
    const writable = store as { value: T | undefined };
    writable.value = withInitials(writable.value ?? initial);
  });
  return store;
}
