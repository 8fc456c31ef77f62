import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { parseFlows } from '../../shared/config/flows';
import { parseSplit } from '../../shared/config/split';
import { SCREEN_IDS } from '../../shared/screens';
import {
  DEFAULT_CONTENT,
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../worker/config/defaults';
import { CONFIG_KEYS, createConfigSource } from '../../worker/config/load';
import { compileExperiments } from '../../worker/experiments/config/evaluate';

/** What a KV key holds in the fake: text, nothing (null), or a read that fails. */
type Stored = string | null | { throws: string };

/**
 * A tiny in-memory stand-in for the one KVNamespace method the loader uses, the bulk
 * `get(keys, 'text')`: a Map of each key's text, or a failure of the whole read where any key's
 * read fails, as one request to KV does. Real KV is exercised by the worker tests; here we only
 * need to control what a read returns.
 */
type Key = keyof typeof CONFIG_KEYS;

/** One load reads each key once. */
const KEYS = Object.keys(CONFIG_KEYS).length;

function fakeKv(initial: Partial<Record<Key, Stored>> = {}) {
  const values = new Map<string, Stored>(Object.entries(initial));
  const reads: string[] = [];
  let gate: Promise<void> | undefined;
  const kv = {
    async get(keys: string[], type: 'text'): Promise<Map<string, string | null>> {
      expect(type).toBe('text');
      expect(Array.isArray(keys)).toBe(true);
      reads.push(...keys);
      if (gate) await gate;
      const texts = new Map<string, string | null>();
      for (const key of keys) {
        const value = values.get(key) ?? null;
        if (value !== null && typeof value === 'object') throw new Error(value.throws);
        texts.set(key, value);
      }
      return texts;
    },
  };
  return {
    kv: kv as unknown as KVNamespace,
    reads,
    set(key: Key, value: Stored) {
      values.set(key, value);
    },
    /** Holds every read until the returned function is called. */
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

const validSplit = {
  version: 'split-7',
  defaultVariant: 'a',
  variants: { a: { weight: 60 }, 'lp11ch8/vc': { weight: 40 } },
};
const validFlows = {
  version: 'flows-3',
  flows: { default: ['one_pager', 'signup', 'success'], lp11ch8_vc: ['signup', 'success'] },
};
/** An experiments section with one paywall test running. */
const PAYWALL_TEST = {
  version: 'v9',
  experiments: {
    'pw-us': {
      name: 'Paywall US',
      status: 'running',
      layer: 'paywall',
      audience: {},
      coverage: 1,
      seed: 'pw-us',
      control: 'a',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { screens: { paywall: 'checkout_v3_pp' } } },
      },
    },
  },
};

/** The `error` codes of the lines the loader logged through console.error. */
function loggedCodes(spy: MockInstance): string[] {
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)).error);
}

function loggedLines(spy: MockInstance): Record<string, unknown>[] {
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)));
}

let errorSpy: MockInstance<typeof console.error>;

beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  errorSpy.mockRestore();
});

/**
 * KV holding a valid split, flows and the paywall price test, and a config source over it with a
 * 1000 ms TTL: `loadAt(ms)` loads at that moment of its clock.
 */
function withPaywallTest() {
  let clock = 0;
  const source = createConfigSource({ now: () => clock });
  const store = fakeKv({
    split: JSON.stringify(validSplit),
    flows: JSON.stringify(validFlows),
    experiments: JSON.stringify(PAYWALL_TEST),
  });
  const loadAt = (ms: number) => {
    clock = ms;
    return source.load(store.kv, 1000);
  };
  return { store, loadAt };
}

describe('createConfigSource', () => {
  it('loads valid documents from the split and flows keys, with a combined version', async () => {
    const store = fakeKv({
      split: JSON.stringify(validSplit),
      flows: JSON.stringify(validFlows),
    });
    const config = await createConfigSource().load(store.kv);
    expect(config.split).toEqual(validSplit);
    expect(config.flows).toEqual(validFlows);
    expect(config.version).toBe('split-7+flows-3');
    expect(store.reads.sort()).toEqual(Object.values(CONFIG_KEYS).sort());
    expect(store.reads).toHaveLength(KEYS);
    expect(errorSpy).not.toHaveBeenCalled();
  });

  it('falls back to the defaults and logs config_missing when the keys are absent', async () => {
    const config = await createConfigSource().load(fakeKv().kv);
    expect(config).toEqual({
      split: DEFAULT_SPLIT,
      flows: DEFAULT_FLOWS,
      routing: DEFAULT_ROUTING,
      experiments: DEFAULT_EXPERIMENTS,
      content: DEFAULT_CONTENT,
      version: 'builtin+builtin',
    });
    // No routing, experiments or content key is how every project starts: the default route,
    // the split alone, the screens as in code, and nothing to log.
    expect(loggedCodes(errorSpy)).toEqual(['config_missing', 'config_missing']);
    expect(loggedLines(errorSpy)[0]).toMatchObject({ level: 'error', using: 'defaults' });
  });

  it('falls back to the defaults and logs config_invalid for an invalid document with no previous good one', async () => {
    const store = fakeKv({
      split: JSON.stringify({ ...validSplit, defaultVariant: 'zzz' }),
      flows: JSON.stringify(validFlows),
    });
    const config = await createConfigSource().load(store.kv);
    expect(config.split).toEqual(DEFAULT_SPLIT);
    expect(config.flows).toEqual(validFlows);
    expect(loggedCodes(errorSpy)).toEqual(['config_invalid']);
    expect(loggedLines(errorSpy)[0]).toMatchObject({
      key: 'split',
      using: 'defaults',
      detail: 'defaultVariant: "zzz" is not one of the variants',
    });
  });

  it('falls back and logs config_unreadable for every document when the KV read throws', async () => {
    // One bulk read holds every document: when it fails, none was read.
    const store = fakeKv({
      split: { throws: 'KV GET failed: 503' },
      flows: JSON.stringify(validFlows),
    });
    const config = await createConfigSource().load(store.kv);
    expect(config.split).toEqual(DEFAULT_SPLIT);
    expect(config.flows).toEqual(DEFAULT_FLOWS);
    expect(loggedLines(errorSpy)).toEqual(
      Object.values(CONFIG_KEYS).map((key) =>
        expect.objectContaining({
          error: 'config_unreadable',
          key,
          detail: 'KV GET failed: 503',
          using: 'defaults',
        }),
      ),
    );
  });

  it('keeps the last known good document when a later one is invalid, missing or unreadable', async () => {
    let clock = 0;
    const source = createConfigSource({ now: () => clock });
    const store = fakeKv({ split: JSON.stringify(validSplit), flows: JSON.stringify(validFlows) });
    const first = await source.load(store.kv, 1000);
    expect(first.split).toEqual(validSplit);

    for (const broken of [
      JSON.stringify({ ...validSplit, variants: { a: { weight: -5 } } }),
      null,
      { throws: 'network' },
    ] satisfies Stored[]) {
      store.set('split', broken);
      store.set('flows', '{"version": 1, "flows": {"default": ["No-pe"]}}');
      clock += 1000;
      errorSpy.mockClear();
      const later = await source.load(store.kv, 1000);
      expect(later.split).toEqual(validSplit);
      expect(later.flows).toEqual(validFlows);
      expect(later.version).toBe('split-7+flows-3');
      // An unreadable read also names the optional documents, never stored: their defaults.
      expect(
        loggedLines(errorSpy).filter((line) => line.key === 'split' || line.key === 'flows'),
      ).toEqual([
        expect.objectContaining({ key: 'split', using: 'last_known_good' }),
        expect.objectContaining({ key: 'flows', using: 'last_known_good' }),
      ]);
    }
  });

  it('parses a document once while its text stays the same: later loads hand on the same object', async () => {
    let clock = 0;
    const source = createConfigSource({ now: () => clock });
    const routing = {
      version: 'v4',
      audiences: {
        tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
      },
      routes: [
        { id: 'tiktok', audience: 'tiktok', flow: 'lp1ch2' },
        { id: 'default', flow: 'default' },
      ],
    };
    const store = fakeKv({
      split: JSON.stringify(validSplit),
      flows: JSON.stringify(validFlows),
      routing: JSON.stringify(routing),
    });
    const first = await source.load(store.kv, 1000);
    expect(first.routing).toEqual(routing);
    clock = 1000;
    const second = await source.load(store.kv, 1000);
    expect(second).not.toBe(first);
    expect(second.routing).toBe(first.routing);
    expect(second.split).toBe(first.split);
    store.set('routing', JSON.stringify({ ...routing, version: 'v5' }));
    clock = 2000;
    const third = await source.load(store.kv, 1000);
    expect(third.routing).not.toBe(first.routing);
    expect(third.routing.version).toBe('v5');
    expect(errorSpy).not.toHaveBeenCalled();
  });

  it('without an experiments key, only the split runs, and nothing is logged', async () => {
    const store = fakeKv({ split: JSON.stringify(validSplit), flows: JSON.stringify(validFlows) });
    const config = await createConfigSource().load(store.kv);
    expect(config.experiments).toEqual(DEFAULT_EXPERIMENTS);
    const compiled = compileExperiments(
      config.experiments,
      config.split,
      config.routing,
      config.content,
    );
    expect([...compiled.byId.keys()]).toEqual(['split']);
    expect(compiled.byLayer.get('flow')?.map((experiment) => experiment.id)).toEqual(['split']);
    expect(errorSpy).not.toHaveBeenCalled();
  });

  it('reads the experiments key; an invalid one is logged and the last good copy goes on', async () => {
    const { store, loadAt } = withPaywallTest();
    const first = await loadAt(0);
    expect(first.experiments).toEqual(PAYWALL_TEST);
    expect(errorSpy).not.toHaveBeenCalled();

    store.set('experiments', JSON.stringify({ ...PAYWALL_TEST, experiments: { x: {} } }));
    const second = await loadAt(1000);
    expect(second.experiments).toBe(first.experiments);
    expect(loggedLines(errorSpy)).toEqual([
      expect.objectContaining({
        error: 'config_invalid',
        key: 'experiments',
        using: 'last_known_good',
      }),
    ]);
  });

  it('serves the defaults once the experiments key is taken out, even if a later read fails', async () => {
    const { store, loadAt } = withPaywallTest();
    expect((await loadAt(0)).experiments).toEqual(PAYWALL_TEST);

    // Taken out of KV: the isolate that saw the test running stops exposing visitors to it.
    store.set('experiments', null);
    expect((await loadAt(1000)).experiments).toEqual(DEFAULT_EXPERIMENTS);
    expect(errorSpy).not.toHaveBeenCalled();

    // A read that then fails falls back to the defaults, not to the test taken out.
    store.set('experiments', { throws: 'network' });
    expect((await loadAt(2000)).experiments).toEqual(DEFAULT_EXPERIMENTS);
    expect(loggedLines(errorSpy)).toContainEqual(
      expect.objectContaining({ key: 'experiments', using: 'defaults' }),
    );
  });

  it('picks up a new valid document once the TTL has passed', async () => {
    let clock = 0;
    const source = createConfigSource({ now: () => clock });
    const store = fakeKv({ split: JSON.stringify(validSplit), flows: JSON.stringify(validFlows) });
    await source.load(store.kv, 1000);
    store.set('split', JSON.stringify({ ...validSplit, version: 'split-8' }));
    clock = 1000;
    expect((await source.load(store.kv, 1000)).version).toBe('split-8+flows-3');
  });

  it('reads KV once within ttlMs and again once ttlMs has passed', async () => {
    let clock = 5_000;
    const source = createConfigSource({ now: () => clock });
    const store = fakeKv({ split: JSON.stringify(validSplit), flows: JSON.stringify(validFlows) });

    const first = await source.load(store.kv, 1000);
    expect(store.reads).toHaveLength(KEYS);
    clock += 999;
    const cached = await source.load(store.kv, 1000);
    expect(cached).toBe(first);
    expect(store.reads).toHaveLength(KEYS);

    clock += 1;
    await source.load(store.kv, 1000);
    expect(store.reads).toHaveLength(2 * KEYS);
  });

  it('with ttlMs 0 reads KV on every load', async () => {
    const source = createConfigSource({ now: () => 0 });
    const store = fakeKv({ split: JSON.stringify(validSplit), flows: JSON.stringify(validFlows) });
    await source.load(store.kv, 0);
    await source.load(store.kv, 0);
    expect(store.reads).toHaveLength(2 * KEYS);
  });

  it('caches a fallback too, so a broken key is not re-read on every request', async () => {
    const source = createConfigSource({ now: () => 0 });
    const store = fakeKv({ split: 'garbage' });
    await source.load(store.kv, 1000);
    await source.load(store.kv, 1000);
    expect(store.reads).toHaveLength(KEYS);
    expect(loggedCodes(errorSpy)).toHaveLength(2);
  });

  it("gives concurrent loads their own KV read, never another request's promise", async () => {
    const source = createConfigSource({ now: () => 0 });
    const store = fakeKv({ split: JSON.stringify(validSplit), flows: JSON.stringify(validFlows) });
    const release = store.hold();
    const loads = [source.load(store.kv, 0), source.load(store.kv, 0), source.load(store.kv, 0)];
    release();
    const configs = await Promise.all(loads);
    expect(store.reads).toHaveLength(3 * KEYS);
    expect(configs[1]).toEqual(configs[0]);
    expect(configs[2]).toEqual(configs[0]);
  });
});

// Stored values for the property: arbitrary text and JSON, valid documents, absence, failures.
const validSplitTextArb = fc
  .dictionary(
    fc.stringMatching(/^[a-z][a-z0-9_]{0,6}(\/[a-z0-9]{1,3})?$/),
    fc.record({ weight: fc.nat({ max: 1000 }) }),
    { minKeys: 1, maxKeys: 5 },
  )
  .filter((variants) => Object.values(variants).some((v) => v.weight > 0))
  .chain((variants) =>
    fc.record({
      version: fc.oneof(fc.nat(), fc.stringMatching(/^[a-z0-9.-]{1,10}$/)),
      defaultVariant: fc.constantFrom(...Object.keys(variants)),
      variants: fc.constant(variants),
    }),
  )
  .map((doc) => JSON.stringify(doc));
const validFlowsTextArb = fc
  .record({
    version: fc.nat(),
    flows: fc
      .dictionary(
        fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/),
        fc.uniqueArray(fc.constantFrom(...SCREEN_IDS), { minLength: 1, maxLength: 8 }),
        { maxKeys: 3 },
      )
      .chain((others) =>
        fc
          .uniqueArray(fc.constantFrom(...SCREEN_IDS), { minLength: 1, maxLength: 8 })
          .map((screens) => ({ ...others, default: screens })),
      ),
  })
  .map((doc) => JSON.stringify(doc));
const storedArb = (valid: fc.Arbitrary<string>): fc.Arbitrary<Stored> =>
  fc.oneof(
    fc.string(),
    fc.json(),
    valid,
    fc.constant(null),
    fc.string().map((message) => ({ throws: message })),
  );

describe('createConfigSource property', () => {
  it('never throws and always yields a valid config, whatever KV holds, across successive loads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(storedArb(validSplitTextArb), storedArb(validFlowsTextArb)), {
          minLength: 1,
          maxLength: 4,
        }),
        async (rounds) => {
          const source = createConfigSource({ now: () => 0 });
          const store = fakeKv();
          let expectedSplit = DEFAULT_SPLIT;
          let expectedFlows = DEFAULT_FLOWS;
          for (const [split, flows] of rounds) {
            store.set('split', split);
            store.set('flows', flows);
            const config = await source.load(store.kv, 0);

            expect(parseSplit(config.split).ok).toBe(true);
            expect(parseFlows(config.flows).ok).toBe(true);
            expect(config.version).toBe(`${config.split.version}+${config.flows.version}`);

            // A valid document is used; anything else leaves the previous good one (or defaults).
            // One bulk read holds both: where either read fails, neither is read.
            const unreadable = [split, flows].some((each) => typeof each === 'object' && each);
            const splitResult =
              typeof split === 'string' && !unreadable ? parseSplit(split) : undefined;
            if (splitResult?.ok) expectedSplit = splitResult.value;
            const flowsResult =
              typeof flows === 'string' && !unreadable ? parseFlows(flows) : undefined;
            if (flowsResult?.ok) expectedFlows = flowsResult.value;
            expect(config.split).toEqual(expectedSplit);
            expect(config.flows).toEqual(expectedFlows);
          }
        },
      ),
      { numRuns: 300 },
    );
    // 300 random histories of loads: about 1 s alone, over 5 s when the suite shares the cores.
  }, 30_000);
});
