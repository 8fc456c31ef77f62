import { describe, expect, it } from 'vitest';
import type { ConfigDocument, SplitDocument } from '../../shared/console-api';
import { diffDocuments } from '../../worker/config/diff';
import { checkFullDocument } from '../../worker/config/document';
import { phaseChange } from '../../worker/config/phase';

/** A split with these weights (flows named after the variants). */
function split(weights: Record<string, number>, extra: Partial<SplitDocument> = {}): SplitDocument {
  return {
    version: 'v1',
    defaultVariant: Object.keys(weights)[0]!,
    variants: Object.fromEntries(Object.entries(weights).map(([key, weight]) => [key, { weight }])),
    ...extra,
  };
}

describe('which edits start a new phase of the experiment', () => {
  it.each<[string, Record<string, number>, Record<string, number>, string | null]>([
    ['the same weights', { a: 50, b: 50 }, { a: 50, b: 50 }, null],
    ['the same shares written differently (50/50 → 1/1)', { a: 50, b: 50 }, { a: 1, b: 1 }, null],
    ['shares of 1/3 from 1:2 and from 10:20', { a: 1, b: 2 }, { a: 10, b: 20 }, null],
    ['a paused variant added', { a: 50, b: 50 }, { a: 50, b: 50, c: 0 }, null],
    ['a paused variant removed', { a: 50, b: 50, c: 0 }, { a: 50, b: 50 }, null],
    [
      'a weight changed',
      { a: 50, b: 50 },
      { a: 30, b: 70 },
      'the shares change: a 50% → 30%, b 50% → 70%',
    ],
    [
      'a variant starts being drawn',
      { a: 50, b: 50, c: 0 },
      { a: 40, b: 40, c: 20 },
      'the shares change: a 50% → 40%, b 50% → 40%; c starts being drawn (20%)',
    ],
    [
      'a variant paused',
      { a: 50, b: 50 },
      { a: 50, b: 0 },
      'the shares change: a 50% → 100%; b is paused',
    ],
    [
      'a variant removed',
      { a: 50, b: 50 },
      { a: 50 },
      'the shares change: a 50% → 100%; b is removed',
    ],
  ])('%s', (_name, before, after, reason) => {
    const change = phaseChange(split(before), split(after), 3);
    if (reason === null) expect(change).toBeNull();
    else expect(change).toEqual({ from: 3, to: 4, reason });
  });

  it('edits that change no weight keep the phase: the default variant, a flow, the version', () => {
    const before = split({ a: 50, b: 50 });
    const after = { ...split({ a: 50, b: 50 }), defaultVariant: 'b', version: 'v9' };
    after.variants.a = { weight: 50, flow: 'other' };
    expect(phaseChange(before, after, 1)).toBeNull();
  });

  it('the first publish starts no new phase: there was nothing to compare', () => {
    expect(phaseChange(null, split({ a: 1, b: 1 }), 1)).toBeNull();
  });
});

const DOCUMENT: ConfigDocument = {
  split: {
    version: 'v1',
    phase: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 50 }, lp1: { weight: 50, flow: 'default' } },
  },
  flows: { version: 'v1', flows: { default: ['one_pager', 'signup', 'success'] } },
  routing: { version: 'v1', audiences: {}, routes: [{ id: 'default', flow: 'default' }] },
};

describe('the diff a marketer reads before publishing', () => {
  it('names each changed, added and removed field, a flow as one list, and no stamped field', () => {
    const after: ConfigDocument = {
      split: {
        version: 'v2',
        phase: 2,
        defaultVariant: 'default',
        variants: { default: { weight: 20 }, lp2: { weight: 80 } },
      },
      flows: {
        version: 'v2',
        flows: { default: ['one_pager', 'success'], lp2: ['one_pager', 'success'] },
      },
      routing: { version: 'v2', audiences: {}, routes: [{ id: 'default', flow: 'default' }] },
    };
    expect(diffDocuments(DOCUMENT, after)).toEqual([
      { path: 'split.variants.default.weight', kind: 'changed', before: 50, after: 20 },
      { path: 'split.variants.lp1', kind: 'removed', before: { weight: 50, flow: 'default' } },
      { path: 'split.variants.lp2', kind: 'added', after: { weight: 80 } },
      {
        path: 'flows.flows.default',
        kind: 'changed',
        before: ['one_pager', 'signup', 'success'],
        after: ['one_pager', 'success'],
      },
      { path: 'flows.flows.lp2', kind: 'added', after: ['one_pager', 'success'] },
    ]);
  });

  it('is empty for the same document, and a whole add against nothing', () => {
    expect(diffDocuments(DOCUMENT, structuredClone(DOCUMENT))).toEqual([]);
    expect(diffDocuments(null, DOCUMENT).map((change) => change.path)).toEqual([
      'split',
      'flows',
      'routing',
    ]);
  });
});

describe('the console document check is the CLI validator', () => {
  it('accepts a valid document and returns each section as the string KV will hold', () => {
    const checked = checkFullDocument(DOCUMENT);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(JSON.parse(checked.value.serialized.split)).toEqual(DOCUMENT.split);
  });

  it('names every field it refuses, in both sections at once', () => {
    const checked = checkFullDocument({
      split: { ...DOCUMENT.split, variants: { default: { weight: -1 } } },
      flows: { version: 'v1', flows: { default: ['one_pager', 'nowhere'] } },
      routing: DOCUMENT.routing,
    });
    expect(checked).toEqual({
      ok: false,
      errors: [
        { path: 'flows.flows.default.1', message: 'unknown screen id "nowhere"' },
        { path: 'split.variants.default.weight', message: 'must not be negative' },
        { path: 'split.variants', message: 'weights must add up to a positive finite number' },
      ],
    });
  });

  it('refuses a missing section and a stranger key by name', () => {
    expect(checkFullDocument({ split: DOCUMENT.split })).toEqual({
      ok: false,
      errors: [
        { path: 'flows', message: 'is missing' },
        { path: 'routing', message: 'is missing' },
      ],
    });
    expect(checkFullDocument({ ...DOCUMENT, extra: 1 })).toMatchObject({
      ok: false,
      errors: [{ path: '', message: expect.stringContaining('"extra"') }],
    });
  });
});
