import { persistentMap } from '@nanostores/persistent';
import { map } from 'nanostores';
import { browserOnly, ON_WORKER } from './browser-only';

/** localStorage key prefix of every persisted slice: `gf:<slice>:<field>`. */
export const PERSIST_PREFIX = 'gf:';

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
  // persistentMap restores a dropped value as `undefined`; the field gets its initial value back
  // instead, so the slice keeps its declared shape after a reload.
  const setAll = store.set;
  store.set = (value) => {
    const restored = { ...value };
    for (const key of Object.keys(initial) as (keyof T)[]) {
      if (restored[key] === undefined) restored[key] = initial[key];
    }
    setAll(restored);
  };
  return store;
}
