import type { MapStore } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * SPEC.md §3 "Persisted slices": app, events, plans, signup, map and checkout survive a reload;
 * error and loader do not. A reload is simulated by throwing away every module (vi.resetModules),
 * carrying the test storage over as the browser carries localStorage over, and importing the
 * stores again.
 */

type Storage = Record<string, string>;

// biome-ignore lint/suspicious/noExplicitAny: each slice has its own field types.
type AnyMap = MapStore<any>;

type SliceName = 'app' | 'events' | 'plans' | 'signup' | 'map' | 'checkout';

const SLICES: Record<SliceName, () => Promise<AnyMap>> = {
  app: async () => (await import('../../islands/stores/app')).$app,
  events: async () => (await import('../../islands/stores/events')).$events,
  plans: async () => (await import('../../islands/stores/plans')).$plans,
  signup: async () => (await import('../../islands/stores/signup')).$signup,
  map: async () => (await import('../../islands/stores/map')).$map,
  checkout: async () => (await import('../../islands/stores/checkout')).$checkout,
};

/** One field per slice with a value different from its initial one. */
const SAMPLES: Record<SliceName, { field: string; value: unknown }> = {
  app: { field: 'flow', value: 'lp11ch8_vc' },
  events: { field: 'eventsData', value: { screen_name: 'signup', step: 3 } },
  plans: { field: 'planDetails', value: { id: 'monthly_usd', price: 39.99 } },
  signup: { field: 'email', value: 'ada@example.com' },
  map: { field: 'initCoords', value: { lat: 52.52, lng: 13.405 } },
  checkout: { field: 'paymentError', value: { show: true, message: 'Card declined' } },
};

/** Starts a fresh page: new module instances, with `storage` as what localStorage holds. */
async function startPage(storage: Storage = {}) {
  vi.resetModules();
  const persistent = await import('@nanostores/persistent');
  // biome-ignore lint/correctness/useHookAtTopLevel: a nanostores test helper, not a React hook.
  persistent.useTestStorageEngine();
  persistent.cleanTestStorage();
  for (const [key, value] of Object.entries(storage)) persistent.setTestStorageKey(key, value);
  return {
    persistent,
    /** What localStorage would hold now; a copy, to carry into the next page. */
    storage: (): Storage => ({ ...persistent.getTestStorage() }),
    slice: (name: SliceName) => SLICES[name](),
    error: () => import('../../islands/stores/error'),
    loader: () => import('../../islands/stores/loader'),
  };
}

let page: Awaited<ReturnType<typeof startPage>>;

beforeEach(async () => {
  page = await startPage();
});

afterEach(() => {
  page.persistent.cleanTestStorage();
});

describe.each(Object.keys(SLICES) as SliceName[])('persisted slice %s', (name) => {
  const { field, value } = SAMPLES[name];

  it(`writes a set field to storage under gf:${name}:<field> as JSON`, async () => {
    const store = await page.slice(name);
    store.setKey(field, value);
    expect(page.storage()).toEqual({ [`gf:${name}:${field}`]: JSON.stringify(value) });
  });

  it('keeps a set field across a reload, with the other fields at their initial values', async () => {
    const before = await page.slice(name);
    const initial = before.get();
    expect(initial[field]).not.toEqual(value);
    before.setKey(field, value);

    const next = await startPage(page.storage());
    const after = await next.slice(name);
    expect(after).not.toBe(before);
    expect(after.get()).toEqual({ ...initial, [field]: value });
  });

  it('drops a corrupt stored value instead of throwing, and the field gets its initial value', async () => {
    const initial = (await page.slice(name)).get();
    const next = await startPage({
      [`gf:${name}:${field}`]: '{"unterminated',
    });
    const store = await next.slice(name);
    expect(store.get()).toEqual(initial);
    expect(next.storage()[`gf:${name}:${field}`]).not.toBe('{"unterminated');
  });
});

describe('persisted slices together', () => {
  it('restore every slice from one storage without mixing fields between slices', async () => {
    const names = Object.keys(SLICES) as SliceName[];
    const initialKeys: Record<string, string[]> = {};
    for (const name of names) {
      const store = await page.slice(name);
      initialKeys[name] = Object.keys(store.get()).sort();
      store.setKey(SAMPLES[name].field, SAMPLES[name].value);
    }
    const next = await startPage(page.storage());
    for (const name of names) {
      const restored = (await next.slice(name)).get();
      expect(restored[SAMPLES[name].field]).toEqual(SAMPLES[name].value);
      // No field of another slice leaked in through a shared key prefix.
      expect(Object.keys(restored).sort()).toEqual(initialKeys[name]);
    }
  });

  it('a value another tab writes to storage reaches the slice while it is listened to', async () => {
    const $app = await page.slice('app');
    const seen: unknown[] = [];
    const unlisten = $app.subscribe((value) => seen.push(value.flow));
    page.persistent.setTestStorageKey('gf:app:flow', JSON.stringify('stripe_test'));
    unlisten();
    expect(seen).toEqual(['default', 'stripe_test']);
  });

  it('a field another tab removes goes back to its initial value, never undefined', async () => {
    const $checkout = await page.slice('checkout');
    const seen: unknown[] = [];
    const unlisten = $checkout.subscribe((value) => seen.push(value.cardholderName));
    $checkout.setKey('cardholderName', 'Ada Lovelace');
    page.persistent.setTestStorageKey('gf:checkout:cardholderName', undefined);
    expect($checkout.get().cardholderName).toBe('');
    unlisten();
    expect(seen).toEqual(['', 'Ada Lovelace', '']);
  });

  it('another tab clearing storage puts every field of a listened slice back to its initial value', async () => {
    const $plans = await page.slice('plans');
    const initial = $plans.get();
    const unlisten = $plans.listen(() => {});
    $plans.setKey('plan', 'monthly_usd');
    // localStorage.clear() in another tab: a storage event without a key.
    page.persistent.setTestStorageKey(null as unknown as string, null as unknown as string);
    expect($plans.get()).toEqual(initial);
    unlisten();
  });
});

describe('non-persisted slices', () => {
  it('$error and $loader write nothing to storage', async () => {
    (await page.error()).showError('Something went wrong');
    (await page.loader()).setLoading(true, 'Locating…');
    expect(page.storage()).toEqual({});
  });

  it('$error and $loader start empty after a reload', async () => {
    const { $error, showError } = await page.error();
    const { $loader, setLoading } = await page.loader();
    showError('Something went wrong');
    setLoading(true, 'Locating…');
    (await page.slice('app')).setKey('flow', 'lp1ch2');
    expect($error.get().show).toBe(true);
    expect($loader.get().enabled).toBe(true);

    const next = await startPage(page.storage());
    expect((await next.error()).$error.get()).toEqual({ show: false, message: '' });
    expect((await next.loader()).$loader.get()).toEqual({ enabled: false, message: '' });
    // The reload itself is real: the persisted slice next to them did survive it.
    expect((await next.slice('app')).get().flow).toBe('lp1ch2');
  });
});
