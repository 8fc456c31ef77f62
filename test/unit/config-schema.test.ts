import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScreenRef } from '../../shared/composed-screens';
import { type FlowsDocument, parseFlows } from '../../shared/config/flows';
import { CONFIG_MAX_BYTES, type ParseResult } from '../../shared/config/parse-document';
import { parseSplit, type SplitDocument } from '../../shared/config/split';
import { SCREEN_IDS } from '../../shared/screens';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../worker/config/defaults';

function errorOf<T>(result: ParseResult<T>): string {
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const splitDoc = (variants: unknown, defaultVariant = 'a') => ({
  version: 1,
  defaultVariant,
  variants,
});

const flowsDoc = (flows: unknown) => ({ version: 'v1', flows });

/** What every accepted split must satisfy for drawVariant to be sound. */
function expectValidSplit(split: SplitDocument): void {
  const weights = Object.values(split.variants).map((v) => v.weight);
  expect(weights.length).toBeGreaterThan(0);
  for (const weight of weights) {
    expect(Number.isFinite(weight)).toBe(true);
    expect(weight).toBeGreaterThanOrEqual(0);
  }
  const total = weights.reduce((sum, w) => sum + w, 0);
  expect(Number.isFinite(total) && total > 0).toBe(true);
  expect(Object.hasOwn(split.variants, split.defaultVariant)).toBe(true);
  expect(typeof split.version).toBe('string');
}

/** What every accepted flows document must satisfy for resolveFlow and nextScreen. */
function expectValidFlows(flows: FlowsDocument): void {
  expect(Object.hasOwn(flows.flows, 'default')).toBe(true);
  for (const screens of Object.values(flows.flows)) {
    expect(screens.length).toBeGreaterThan(0);
    expect(new Set(screens).size).toBe(screens.length);
    // A name a composed screen may take passes here; whether the content composes it is the
    // cross-section check's (test/worker/content/composed-screen.test.ts).
    for (const screen of screens) expect(isScreenRef(screen)).toBe(true);
  }
  expect(typeof flows.version).toBe('string');
}

describe('parseSplit accepts', () => {
  it('a valid document as an object or as JSON text, with the version read as a string', () => {
    const doc = splitDoc({ a: { weight: 70 }, 'lp11ch8/vc': { weight: 30, flow: 'lp11ch8_vc' } });
    const fromObject = parseSplit(doc);
    const fromText = parseSplit(JSON.stringify(doc));
    expect(fromObject).toEqual({ ok: true, value: { ...doc, version: '1' } });
    expect(fromText).toEqual(fromObject);
  });

  it('the built-in default split', () => {
    expect(parseSplit(DEFAULT_SPLIT)).toEqual({ ok: true, value: DEFAULT_SPLIT });
  });

  it('weight-0 variants next to a positive one', () => {
    expect(parseSplit(splitDoc({ a: { weight: 0 }, b: { weight: 1 } })).ok).toBe(true);
  });

  it('a document of exactly CONFIG_MAX_BYTES bytes', () => {
    const json = JSON.stringify(splitDoc({ a: { weight: 1 } }));
    expect(parseSplit(json + ' '.repeat(CONFIG_MAX_BYTES - json.length)).ok).toBe(true);
  });
});

describe('parseSplit rejects', () => {
  it('a negative weight', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: -1 }, b: { weight: 5 } })))).toBe(
      'variants.a.weight: must not be negative',
    );
  });

  it('a NaN weight', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: Number.NaN } })))).toMatch(
      /^variants\.a\.weight: .*NaN/,
    );
  });

  it('an infinite weight written as 1e999 or -1e999 in raw JSON', () => {
    const raw = (w: string) =>
      `{"version":1,"defaultVariant":"a","variants":{"a":{"weight":${w}}}}`;
    expect(errorOf(parseSplit(raw('1e999')))).toMatch(/^variants\.a\.weight: .*Infinity/);
    expect(errorOf(parseSplit(raw('-1e999')))).toMatch(/^variants\.a\.weight: .*-Infinity/);
  });

  it('weights that add up to zero', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: 0 }, b: { weight: 0 } })))).toBe(
      'variants: weights must add up to a positive finite number',
    );
  });

  it('finite weights whose sum overflows to Infinity', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: 1e308 }, b: { weight: 1e308 } })))).toBe(
      'variants: weights must add up to a positive finite number',
    );
  });

  it('a defaultVariant that is not one of the variants', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: 1 } }, 'b')))).toBe(
      'defaultVariant: "b" is not one of the variants',
    );
  });

  it('a defaultVariant that only exists on Object.prototype', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: 1 } }, 'constructor')))).toBe(
      'defaultVariant: "constructor" is not one of the variants',
    );
  });

  it('no variants at all', () => {
    expect(errorOf(parseSplit(splitDoc({})))).toContain('variants: must list at least one variant');
  });

  it('a variant key that is not "type" or "type/subtype"', () => {
    expect(errorOf(parseSplit(splitDoc({ 'a/b/c': { weight: 1 } }, 'a/b/c')))).toContain(
      'defaultVariant: must be "type" or "type/subtype"',
    );
  });

  it('an unknown field in a variant', () => {
    expect(errorOf(parseSplit(splitDoc({ a: { weight: 1, wieght: 2 } })))).toBe(
      'variants.a: Unrecognized key: "wieght"',
    );
  });

  it('text over CONFIG_MAX_BYTES bytes, counted in UTF-8 bytes rather than characters', () => {
    expect(errorOf(parseSplit(' '.repeat(CONFIG_MAX_BYTES + 1)))).toBe(
      `larger than ${CONFIG_MAX_BYTES} bytes`,
    );
    const multiByte = 'é'.repeat(CONFIG_MAX_BYTES / 2 + 1);
    expect(multiByte.length).toBeLessThan(CONFIG_MAX_BYTES);
    expect(errorOf(parseSplit(multiByte))).toBe(`larger than ${CONFIG_MAX_BYTES} bytes`);
  });

  it('text that is not JSON', () => {
    expect(errorOf(parseSplit('{"version": 1,'))).toMatch(/^not JSON: /);
  });

  it('a JSON value that is not an object', () => {
    expect(errorOf(parseSplit('null'))).toMatch(/^\(root\): /);
    expect(errorOf(parseSplit('[1,2]'))).toMatch(/^\(root\): /);
  });
});

describe('parseFlows accepts', () => {
  it('the built-in default flows', () => {
    expect(parseFlows(DEFAULT_FLOWS)).toEqual({ ok: true, value: DEFAULT_FLOWS });
  });

  it('a JSON text with a numeric version, read as a string', () => {
    expect(parseFlows(JSON.stringify({ version: 3, flows: { default: ['signup'] } }))).toEqual({
      ok: true,
      value: { version: '3', flows: { default: ['signup'] } },
    });
  });
});

describe('the documents refuse a list past its most', () => {
  const entries = (count: number, entry: (index: number) => unknown) =>
    Object.fromEntries(Array.from({ length: count }, (_, index) => [`x${index}`, entry(index)]));

  it('a split of 101 variants, and takes 100', () => {
    const variants = (count: number) => ({
      ...entries(count - 1, () => ({ weight: 1 })),
      a: { weight: 1 },
    });
    expect(parseSplit(splitDoc(variants(100))).ok).toBe(true);
    expect(errorOf(parseSplit(splitDoc(variants(101))))).toBe(
      'variants: must list at most 100 variants',
    );
  });

  it('101 flows, and takes 100', () => {
    const flows = (count: number) => ({
      ...entries(count - 1, () => ['signup']),
      default: ['signup'],
    });
    expect(parseFlows(flowsDoc(flows(100))).ok).toBe(true);
    expect(errorOf(parseFlows(flowsDoc(flows(101))))).toBe('flows: must list at most 100 flows');
  });
});

describe('parseFlows rejects', () => {
  it('a screen id no screen could have, naming it and its position', () => {
    expect(errorOf(parseFlows(flowsDoc({ default: ['signup', 'Sign-Up'] })))).toBe(
      'flows.default.1: unknown screen id "Sign-Up"',
    );
  });

  it("a document without the 'default' flow", () => {
    expect(errorOf(parseFlows(flowsDoc({ lp1ch2: ['signup'] })))).toBe(
      'flows: must contain the "default" flow',
    );
  });

  it('a flow that lists a screen twice', () => {
    expect(errorOf(parseFlows(flowsDoc({ default: ['signup', 'success', 'signup'] })))).toBe(
      'flows.default: must not list a screen twice',
    );
  });

  it('an empty flow', () => {
    expect(errorOf(parseFlows(flowsDoc({ default: [] })))).toBe(
      'flows.default: must list at least one screen',
    );
  });

  it('text over CONFIG_MAX_BYTES bytes', () => {
    const json = JSON.stringify(flowsDoc({ default: ['signup'] }));
    expect(errorOf(parseFlows(json + ' '.repeat(CONFIG_MAX_BYTES + 1 - json.length)))).toBe(
      `larger than ${CONFIG_MAX_BYTES} bytes`,
    );
  });

  it('text that is not JSON', () => {
    expect(errorOf(parseFlows('flows: default'))).toMatch(/^not JSON: /);
  });
});

// Documents close enough to valid that both outcomes occur, so the invariants are exercised:
// mostly well-formed parts, sometimes a broken one.
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 });

const variantKeyArb = mostly(
  fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,6}(\/[a-z0-9][a-z0-9_-]{0,4})?$/),
  fc.constantFrom('constructor', '__proto__', 'toString', 'A', '', 'a/b/c'),
);
const weightArb = mostly(
  fc.nat({ max: 100 }),
  fc.oneof(
    fc.double(),
    fc.constantFrom(0, -0, -1, 1e308, Number.NaN, Number.POSITIVE_INFINITY),
    fc.string(),
  ),
);
const variantArb = mostly(
  fc.record(
    { weight: weightArb, flow: fc.constantFrom('lp11ch8', 'x-1') },
    { requiredKeys: ['weight'] },
  ),
  fc.record({ weight: weightArb, flow: fc.constantFrom('Bad', '', 7) }),
);
const nearSplitArb = fc
  .dictionary(variantKeyArb, variantArb, { minKeys: 0, maxKeys: 5 })
  .chain((variants) =>
    fc.record({
      version: mostly(fc.nat(), fc.oneof(fc.string(), fc.constant(-1))),
      defaultVariant:
        Object.keys(variants).length > 0
          ? mostly(fc.constantFrom(...Object.keys(variants)), variantKeyArb)
          : variantKeyArb,
      variants: fc.constant(variants),
    }),
  );

const screenListArb = mostly(
  fc.uniqueArray(fc.constantFrom(...SCREEN_IDS), { minLength: 1, maxLength: 6 }),
  fc.array(fc.oneof(fc.constantFrom(...SCREEN_IDS), fc.string({ maxLength: 4 })), {
    maxLength: 6,
  }),
);
const nearFlowsArb = fc.record({
  version: mostly(fc.nat(), fc.string()),
  flows: fc
    .tuple(
      mostly(
        screenListArb.map((screens) => ({ default: screens })),
        fc.constant({}),
      ),
      fc.dictionary(
        mostly(fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,6}$/), fc.string({ maxLength: 4 })),
        screenListArb,
        { maxKeys: 3 },
      ),
    )
    .map(([base, others]) => ({ ...others, ...base })),
});

describe('properties', () => {
  it('parseSplit never throws for any input and returns a result', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.json(), nearSplitArb), (raw) => {
        const result = parseSplit(raw);
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) expectValidSplit(result.value);
        else expect(result.error.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('parseFlows never throws for any input and returns a result', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.json(), nearFlowsArb), (raw) => {
        const result = parseFlows(raw);
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) expectValidFlows(result.value);
        else expect(result.error.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('every split parseSplit accepts has finite non-negative weights, a positive sum and an own defaultVariant', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          nearSplitArb,
          nearSplitArb.map((doc) => JSON.stringify(doc)),
        ),
        (raw) => {
          const result = parseSplit(raw);
          if (!result.ok) return;
          accepted++;
          expectValidSplit(result.value);
        },
      ),
      { numRuns: 1000 },
    );
    // The generator must actually produce accepted documents, or the property proves nothing.
    expect(accepted).toBeGreaterThan(20);
  });

  it('every flows document parseFlows accepts has a default flow of known, unique screens', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          nearFlowsArb,
          nearFlowsArb.map((doc) => JSON.stringify(doc)),
        ),
        (raw) => {
          const result = parseFlows(raw);
          if (!result.ok) return;
          accepted++;
          expectValidFlows(result.value);
        },
      ),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(20);
  });
});
