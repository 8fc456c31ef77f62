/** The part of Web Storage the ledger uses; unit tests hand it a Map-backed one. */
export interface LedgerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** localStorage key of the subscription ids each pixel has been told about. */
export const FIRED_KEY = 'gf:pixels:fired';

/** Ids kept per pixel: a visitor buys a plan and a few upsells, never dozens. */
const KEPT_PER_PIXEL = 50;

type Fired = Record<string, string[]>;

function parse(raw: string | null): Fired {
  try {
    const value: unknown = JSON.parse(raw ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const fired: Fired = {};
    for (const [pixel, ids] of Object.entries(value)) {
      if (Array.isArray(ids)) fired[pixel] = ids.filter((id) => typeof id === 'string');
    }
    return fired;
  } catch {
    return {};
  }
}

/**
 * Each purchase reaches each pixel once, however often its event is heard again: a
 * listener replaying the page's events, a reload, a second tab. Kept in localStorage, and read
 * afresh on every claim so another tab's report counts; without storage (private modes, a full
 * quota) it still holds for this page.
 */
export function createFiredLedger(storage: LedgerStorage | null) {
  const claimedHere = new Set<string>();
  const stored = (): Fired => {
    try {
      return storage ? parse(storage.getItem(FIRED_KEY)) : {};
    } catch {
      return {};
    }
  };
  return {
    /** True the first time `pixel` claims `subId`, which is then remembered; false after. */
    claim(pixel: string, subId: string): boolean {
      const key = `${pixel}\n${subId}`;
      if (claimedHere.has(key)) return false;
      claimedHere.add(key);
      const fired = stored();
      const ids = fired[pixel] ?? [];
      if (ids.includes(subId)) return false;
      fired[pixel] = [...ids, subId].slice(-KEPT_PER_PIXEL);
      try {
        storage?.setItem(FIRED_KEY, JSON.stringify(fired));
      } catch {
        // Storage refused (quota, private mode): this page still remembers it.
      }
      return true;
    },
  };
}
