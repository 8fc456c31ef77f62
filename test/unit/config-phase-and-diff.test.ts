import { describe, expect, it } from 'vitest';
import { COMPOSED_SCREENS } from '../../screens/composed';
import { EMPTY_CONTENT } from '../../shared/config/content';
import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';
import type { SplitDocument } from '../../shared/config/split';
import type { ConfigDocument } from '../../shared/console-api/config';
import { DEFAULT_EXPERIMENTS } from '../../worker/config/defaults';
import { diffDocuments } from '../../worker/config/diff';
import { checkFullDocument } from '../../worker/config/document';
import {
  experimentPhases,
  phaseChange,
  stampPublish,
} from '../../worker/experiments/config/phases';

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
  experiments: DEFAULT_EXPERIMENTS,
  content: EMPTY_CONTENT,
};

/** A landing test: the control and one variant swapping the landing screen. */
function landingTest(fields: Partial<ExperimentDocument> = {}): ExperimentDocument {
  return {
    name: 'Landing AI',
    status: 'running',
    layer: 'landing',
    audience: { routes: ['default'] },
    coverage: 1,
    seed: 'landing-ai',
    control: 'a',
    variants: {
      a: { weight: 1, change: {} },
      b: { weight: 1, change: { screens: { landing: 'one_pager_all' } } },
    },
    ...fields,
  };
}

function withExperiments(experiments: Record<string, ExperimentDocument>): ConfigDocument {
  return { ...DOCUMENT, experiments: { version: 'v1', experiments } };
}

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
      experiments: { ...DEFAULT_EXPERIMENTS, version: 'v2' },
      content: EMPTY_CONTENT,
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
      'experiments',
    ]);
  });

  it("names an experiment's edits by field, and neither its phase nor the version", () => {
    const before = withExperiments({ 'landing-ai': landingTest({ phase: 2 }) });
    const after = withExperiments({
      'landing-ai': landingTest({
        phase: 3,
        status: 'paused',
        variants: { ...landingTest().variants, b: { weight: 3, change: {} } },
      }),
      'pw-us': landingTest({ layer: 'paywall' }),
    });
    after.experiments.version = 'v2';
    expect(diffDocuments(before, after)).toEqual([
      {
        path: 'experiments.experiments.landing-ai.status',
        kind: 'changed',
        before: 'running',
        after: 'paused',
      },
      {
        path: 'experiments.experiments.landing-ai.variants.b.weight',
        kind: 'changed',
        before: 1,
        after: 3,
      },
      {
        path: 'experiments.experiments.landing-ai.variants.b.change.screens',
        kind: 'removed',
        before: { landing: 'one_pager_all' },
      },
      {
        path: 'experiments.experiments.pw-us',
        kind: 'added',
        after: landingTest({ layer: 'paywall' }),
      },
    ]);
  });
});

describe('the content in the diff', () => {
  const withContent = (content: ConfigDocument['content']): ConfigDocument => ({
    ...DOCUMENT,
    content,
  });
  const sections = (...ids: string[]) => ids.map((id) => ({ id, visible: true }));

  it('names each text of a first override by language and key, not the language as one blob', () => {
    const after = withContent({
      screens: {
        one_pager: { copy: { en: { 'screens.one_pager.title': 'Find' }, de: { 'a.b': 'Finden' } } },
      },
    });
    expect(diffDocuments(DOCUMENT, after)).toEqual([
      {
        path: 'content.screens.one_pager.copy.en.screens.one_pager.title',
        kind: 'added',
        after: 'Find',
      },
      { path: 'content.screens.one_pager.copy.de.a.b', kind: 'added', after: 'Finden' },
    ]);
    expect(diffDocuments(after, DOCUMENT).map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      'removed content.screens.one_pager.copy.en.screens.one_pager.title',
      'removed content.screens.one_pager.copy.de.a.b',
    ]);
  });

  it('adds a composed screen and a variant whole, the variant with the sections it is laid over', () => {
    const spring = { slot: 'landing', from: 'one_pager' as const, sections: sections('hero', 'x') };
    const composed = withContent({ screens: {}, composed: { spring } });
    expect(diffDocuments(DOCUMENT, composed)).toEqual([
      { path: 'content.composed.spring', kind: 'added', after: spring },
    ]);
    const variant = { sections: sections('x', 'hero') };
    const varied = withContent({
      screens: { one_pager: { variants: { b: variant } } },
      composed: { spring: { ...spring, variants: { b: variant } } },
    });
    // one_pager's content lists no sections: those it is laid over are the screen's in code.
    const inCode = COMPOSED_SCREENS.one_pager!.composition.sections.map(({ kind }) => ({
      id: kind,
      visible: true,
    }));
    expect(diffDocuments(composed, varied)).toEqual([
      {
        path: 'content.screens.one_pager.variants.b',
        kind: 'added',
        after: variant,
        sectionsOver: inCode,
      },
      {
        path: 'content.composed.spring.variants.b',
        kind: 'added',
        after: variant,
        sectionsOver: spring.sections,
      },
    ]);
  });
});

describe('a screen arranged for the first time', () => {
  it('is laid over the sections code composes it with', () => {
    const inCode = COMPOSED_SCREENS.one_pager!.composition.sections.map(({ kind }) => ({
      id: kind,
      visible: true,
    }));
    const arranged = [...inCode].reverse();
    const after: ConfigDocument = {
      ...DOCUMENT,
      content: { screens: { one_pager: { sections: arranged } } },
    };
    expect(diffDocuments(DOCUMENT, after)).toEqual([
      {
        path: 'content.screens.one_pager.sections',
        kind: 'added',
        after: arranged,
        sectionsOver: inCode,
      },
    ]);
    // Its next list is compared with this one: nothing is laid over it.
    const next = structuredClone(after);
    next.content.screens.one_pager!.sections = inCode;
    expect(diffDocuments(after, next)[0]).not.toHaveProperty('sectionsOver');
  });
});

describe("each experiment's phase, stamped by the publish", () => {
  const live: ExperimentsDocument = {
    version: 'v4',
    experiments: { 'landing-ai': landingTest({ phase: 3 }) },
  };
  const now = new Date('2026-11-25T12:00:00Z');

  it('keeps the phase an experiment has live, whatever the document sent says', () => {
    const sent = { version: 'draft', experiments: { 'landing-ai': landingTest({ phase: 9 }) } };
    expect(stampPublish(sent, live, now, 'anna').experiments['landing-ai']?.phase).toBe(3);
    const unsent = { version: 'draft', experiments: { 'landing-ai': landingTest() } };
    expect(stampPublish(unsent, live, now, 'anna').experiments['landing-ai']?.phase).toBe(3);
  });

  it('starts a new experiment at phase 1, and a reweighted running one in the next', () => {
    const reweighted = landingTest();
    const sent = {
      version: 'draft',
      experiments: {
        'landing-ai': {
          ...reweighted,
          variants: { ...reweighted.variants, b: { ...reweighted.variants.b!, weight: 3 } },
        },
        fresh: landingTest({ phase: 5 }),
      },
    };
    expect(experimentPhases(live, sent)).toEqual([
      expect.objectContaining({ experiment: 'landing-ai', from: 3, to: 4 }),
    ]);
    const stamped = stampPublish(sent, live, now, 'anna');
    expect(stamped.experiments['landing-ai']?.phase).toBe(4);
    expect(stamped.experiments.fresh?.phase).toBe(1);
    // The document sent is left as it was.
    expect(sent.experiments['landing-ai'].phase).toBeUndefined();
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
      flows: { version: 'v1', flows: { default: ['one_pager', 'Nowhere'] } },
      routing: DOCUMENT.routing,
      experiments: DOCUMENT.experiments,
      content: DOCUMENT.content,
    });
    expect(checked).toEqual({
      ok: false,
      errors: [
        { path: 'flows.flows.default.1', message: 'unknown screen id "Nowhere"' },
        { path: 'split.variants.default.weight', message: 'must not be negative' },
        { path: 'split.variants', message: 'weights must add up to a positive finite number' },
      ],
    });
  });

  it('refuses a missing section and a stranger key by name', () => {
    const missing =
      'is missing (a console page opened before the worker was updated leaves it out: reload the page)';
    expect(checkFullDocument({ split: DOCUMENT.split })).toEqual({
      ok: false,
      errors: [
        { path: 'flows', message: missing },
        { path: 'routing', message: missing },
        { path: 'experiments', message: missing },
        { path: 'content', message: missing },
      ],
    });
    expect(checkFullDocument({ ...DOCUMENT, extra: 1 })).toMatchObject({
      ok: false,
      errors: [{ path: '', message: expect.stringContaining('"extra"') }],
    });
  });

  it('refuses a document from a console page older than the experiments: it would end them unseen', () => {
    const { experiments: _none, ...fromOldConsole } = withExperiments({
      'landing-ai': landingTest(),
    });
    expect(checkFullDocument(fromOldConsole)).toEqual({
      ok: false,
      errors: [
        {
          path: 'experiments',
          message:
            'is missing (a console page opened before the worker was updated leaves it out: reload the page)',
        },
      ],
    });
  });

  it("checks the experiments' own fields and returns the section as KV will hold it", () => {
    const document = withExperiments({ 'landing-ai': landingTest() });
    const checked = checkFullDocument(document);
    expect(checked.ok && JSON.parse(checked.value.serialized.experiments)).toEqual(
      document.experiments,
    );
    expect(
      checkFullDocument(withExperiments({ 'landing-ai': landingTest({ coverage: 0 }) })),
    ).toEqual({
      ok: false,
      errors: [{ path: 'experiments.experiments.landing-ai.coverage', message: 'must be above 0' }],
    });
  });

  it("refuses an experiment taking the split's id, which the edge would never run", () => {
    expect(checkFullDocument(withExperiments({ split: landingTest() }))).toEqual({
      ok: false,
      errors: [
        {
          path: 'experiments.experiments.split',
          message: `"split" is the split test's id: give this experiment another`,
        },
      ],
    });
  });
});
