import { describe, expect, it } from 'vitest';
import { changeItems, changeText } from '../../../console/kit/change-text';
import { sectionMoves } from '../../../console/kit/content-change-text';
import { valueText } from '../../../console/kit/value-text';
import { wonDecision } from '../../fixtures/won-decision';

const sections = (...ids: string[]) => ids.map((id) => ({ id, visible: true }));

describe('a change of the split, the flows, the routing or the experiments as a sentence', () => {
  it('names the field and shows before → after', () => {
    expect(
      changeText({ path: 'split.variants.lp1.weight', kind: 'changed', before: 50, after: 30 }),
    ).toBe('Weight of lp1: 50 → 30');
    expect(
      changeText({
        path: 'flows.flows.lp1',
        kind: 'changed',
        before: ['one_pager', 'signup'],
        after: ['signup', 'one_pager'],
      }),
    ).toBe('Flow lp1: one_pager, signup → signup, one_pager');
    expect(
      changeText({
        path: 'experiments.experiments.pw-us.status',
        kind: 'changed',
        before: 'running',
        after: 'paused',
      }),
    ).toBe('Experiment pw-us, status: running → paused');
  });

  it('says what was added and what was removed, an object by its name or first fields', () => {
    expect(
      changeText({ path: 'split.variants.lp18', kind: 'added', after: { weight: 10, flow: 'x' } }),
    ).toBe('Variant lp18 added: weight 10, flow x');
    expect(changeText({ path: 'split.variants.lp3.flow', kind: 'removed', before: 'lp3' })).toBe(
      'Flow of lp3 removed (was lp3)',
    );
    expect(
      changeText({
        path: 'experiments.experiments.pw-us',
        kind: 'added',
        after: { name: 'Paywall prices in the US', layer: 'paywall', variants: {} },
      }),
    ).toBe("Experiment pw-us added: 'Paywall prices in the US'");
  });

  it('names a whole section added against nothing by its fields, their objects by their keys', () => {
    expect(
      changeText({
        path: 'split',
        kind: 'added',
        after: {
          version: 'builtin',
          defaultVariant: 'default',
          variants: { default: {}, lp17: {} },
        },
      }),
    ).toBe('Split added: version builtin, default variant default, variants default, lp17');
    expect(
      changeText({ path: 'experiments', kind: 'added', after: { version: 'v1', experiments: {} } }),
    ).toBe('Experiments added: version v1, experiments none');
  });

  it('names a missing value, quotes a text and shortens a long one', () => {
    expect(valueText(undefined)).toBe('(none)');
    expect(valueText(null)).toBe('null');
    expect(valueText('Find any phone')).toBe("'Find any phone'");
    const long = valueText('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(62);
    expect(long).toMatch(/^'word word .*…'$/);
  });
});

describe('a change of the routes, the audiences or an experiment’s audience and decision', () => {
  const TIKTOK_DE = [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]];
  const routes = (plans: string[]) => [
    { id: 'tiktok', audience: 'tiktok_de', flow: 'lp1', plans },
    { id: 'default', flow: 'lp1' },
  ];

  it('says which plans a route now sells, priced, not its list of route ids', () => {
    const items = changeItems([
      {
        path: 'routing.routes',
        kind: 'changed',
        before: routes(['monthly_7d_intro']),
        after: routes(['quarterly', 'monthly_7d_intro']),
      },
    ]);
    expect(items.map((item) => item.kind === 'line' && item.text)).toEqual([
      'Route tiktok now sells Plans: quarterly: $59.99 every 3 months; monthly_7d_intro: $6.99 for 7 days, then $39.99 a month (was Plans: monthly_7d_intro: $6.99 for 7 days, then $39.99 a month)',
    ]);
  });

  it('says a route added, removed, paused, moved, or sent to another flow, one line each', () => {
    const [tiktok, fallback] = routes(['quarterly']);
    const items = changeItems([
      {
        path: 'routing.routes',
        kind: 'changed',
        before: [tiktok, { id: 'meta', audience: 'meta_us', flow: 'lp2' }, fallback],
        after: [
          { id: 'spring', audience: 'tiktok_de', flow: 'spring' },
          { ...fallback!, flow: 'lp3' },
          { ...tiktok!, paused: true },
        ],
      },
    ]);
    expect(items.map((item) => item.kind === 'line' && item.text)).toEqual([
      'Route spring added: audience tiktok_de, flow spring; Plans: each screen’s own',
      'Route default, flow: lp1 → lp3',
      'Route tiktok paused: it takes no new visitor',
      'Route meta removed (was audience meta_us, flow lp2; Plans: each screen’s own)',
      'Routes in a new order (the first that matches takes the visitor): default, tiktok (was tiktok, default)',
    ]);
    expect(items.every((item) => item.paths[0] === 'routing.routes')).toBe(true);
  });

  it('says who a saved audience takes, in the traffic map’s words', () => {
    expect(
      changeText({
        path: 'routing.audiences.tiktok_de',
        kind: 'added',
        after: { groups: TIKTOK_DE },
      }),
    ).toBe('Audience tiktok_de added: TikTok ads');
    expect(
      changeText({
        path: 'routing.audiences.tiktok_de.groups',
        kind: 'changed',
        before: TIKTOK_DE,
        after: [[...TIKTOK_DE[0]!, { attribute: 'country', operator: 'in', values: ['DE', 'AT'] }]],
      }),
    ).toBe('Audience tiktok_de now takes TikTok ads in DE, AT (was TikTok ads)');
  });

  it('says which routes and audience an experiment takes', () => {
    expect(
      changeText({
        path: 'experiments.experiments.pw-us.audience.routes',
        kind: 'added',
        after: ['tiktok', 'default'],
      }),
    ).toBe('Experiment pw-us takes visitors on routes tiktok, default (was every route)');
    expect(
      changeText({
        path: 'experiments.experiments.pw-us.audience.audience',
        kind: 'removed',
        before: 'tiktok_de',
      }),
    ).toBe('Experiment pw-us, saved audience: tiktok_de → none');
    expect(
      changeText({
        path: 'experiments.experiments.pw-us.audience.groups',
        kind: 'added',
        after: TIKTOK_DE,
      }),
    ).toBe('Experiment pw-us, its own conditions: none → TikTok ads');
  });

  it('says a decision as its card does, with what it was made on and by whom', () => {
    expect(
      changeText({
        path: 'experiments.experiments.pw-us.decision',
        kind: 'added',
        after: wonDecision('b'),
      }),
    ).toBe(
      'Experiment pw-us decided: won, variant b rolled out to its audience (on Purchase: +10% (+2% to +18%); by anna@example.com)',
    );
  });

  it('says a change inside a decision in words, field by field no more', () => {
    const within = (field: string, before: unknown, after: unknown) =>
      changeText({
        path: `experiments.experiments.pw-us.decision.${field}`,
        kind: 'changed',
        before,
        after,
      });
    expect(within('action', 'roll_out', 'route_default')).toBe(
      "Experiment pw-us's decision, action: roll out to its audience → make it its routes' default",
    );
    expect(within('reason', 'the lift is small', 'the lift holds')).toBe(
      "Experiment pw-us's decision, reason: “the lift is small” → “the lift holds”",
    );
    expect(within('by', 'anna@example.com', 'bob@example.com')).toBe(
      "Experiment pw-us's decision, decided by: “anna@example.com” → “bob@example.com”",
    );
    expect(within('evidence.metric', 'purchase', 'net_revenue')).toMatch(
      /^Experiment pw-us's decision, evidence metric: Purchase → /,
    );
  });

  it('says which plans a variant sells, priced', () => {
    expect(
      changeText({
        path: 'experiments.experiments.pw-us.variants.b.change.plans',
        kind: 'added',
        after: ['quarterly'],
      }),
    ).toBe(
      'Experiment pw-us, variant b, plans: the route’s own → quarterly: $59.99 every 3 months',
    );
  });
});

describe('a guarded ramp’s change in the words of its fields and its card', () => {
  /** The careful preset as the create form writes it: 5%, 25%, then 100% of the audience enter. */
  const ramp = {
    steps: [
      { coverage: 0.025, holdHours: 24, minPerArm: 500 },
      { coverage: 0.125, holdHours: 24, minPerArm: 2000 },
      { coverage: 0.5, holdHours: 0, minPerArm: 0 },
    ],
    state: { step: 0, since: '2026-12-01T09:00:00.000Z', status: 'running' as const },
  };
  const plan =
    '5% enter (24 h, 500 exposed per arm), then 25% enter (24 h, 2,000 exposed per arm), then 100% enter';

  it('says a ramp started as its steps were typed, never its raw fields', () => {
    const started = changeText({
      path: 'experiments.experiments.lp-ai.ramp',
      kind: 'added',
      after: ramp,
    });
    expect(started).toBe(
      `Experiment lp-ai on a guarded ramp: ${plan}; step 1 of 3 (5% enter), running`,
    );
    expect(started).not.toMatch(/coverage|holdHours|minPerArm/);
    expect(
      changeText({
        path: 'experiments.experiments.lp-ai.decision.ramp',
        kind: 'removed',
        before: ramp,
      }),
    ).toBe(`Experiment lp-ai's roll-out's guarded ramp removed (was ${plan})`);
  });

  it('says a step, a status, a share, a hold and a guardrail changed, one sentence each', () => {
    const at = (leaf: string, before: unknown, after: unknown) =>
      changeText({
        path: `experiments.experiments.lp-ai.ramp.${leaf}`,
        kind: before === undefined ? 'added' : 'changed',
        before,
        after,
      });
    expect(at('state.step', 0, 1)).toBe("Experiment lp-ai's guarded ramp, step 1 → step 2");
    expect(at('state.status', 'running', 'rolled_back')).toBe(
      "Experiment lp-ai's guarded ramp, running → rolled back",
    );
    expect(at('steps.0.coverage', 0.025, 0.05)).toBe(
      "Experiment lp-ai's guarded ramp, step 1: 5% → 10% enter",
    );
    expect(at('steps.1.holdHours', 24, 4)).toBe(
      "Experiment lp-ai's guarded ramp, step 2 holds 24 h → 4 h",
    );
    expect(at('guardrails.declines', undefined, 'hold')).toBe(
      "Experiment lp-ai's guarded ramp, when declines breaks it rolls back (its default) → holds",
    );
  });

  it('says a route added on a ramp, and its ramp held, in the route’s lines', () => {
    const plain = { id: 'default', flow: 'default' };
    expect(
      changeText({
        path: 'routing.routes',
        kind: 'changed',
        before: [plain],
        after: [{ id: 'tiktok', flow: 'default', ramp }, plain],
      }),
    ).toContain(
      `Route tiktok added: everyone else, flow default; Plans: each screen’s own; on a guarded ramp: ${plan}`,
    );
    const held = {
      ...ramp,
      state: { ...ramp.state, status: 'held' as const, reason: 'tickets up' },
    };
    expect(
      changeText({
        path: 'routing.routes',
        kind: 'changed',
        before: [{ id: 'tiktok', flow: 'default', ramp }, plain],
        after: [{ id: 'tiktok', flow: 'default', ramp: held }, plain],
      }),
    ).toBe(
      "Route tiktok's guarded ramp: step 1 of 3 (5% enter), running → step 1 of 3 (5% enter), held; Route tiktok's guarded ramp, why: “tickets up”",
    );
  });
});

describe('a change of the content as a sentence', () => {
  const SPRING = {
    slot: 'landing',
    from: 'one_pager',
    sections: sections('hero', 'phone_form', 'reviews', 'footer'),
    copy: { en: { 'screens.one_pager.title': 'Spring' }, de: { 'screens.one_pager.title': 'F' } },
  };

  it('names a new composed screen by its sections, its texts and what it starts from', () => {
    expect(
      changeText({ path: 'content.composed.spring_landing', kind: 'added', after: SPRING }),
    ).toBe(
      'New composed screen spring_landing (Landing, from one_pager): Heading, Phone form, Reviews, Support links; its own texts in English, German',
    );
    expect(
      changeText({ path: 'content.composed.spring_landing', kind: 'removed', before: SPRING }),
    ).toBe('Composed screen spring_landing removed');
  });

  it('says what a new content variant moves against the screen it is laid over', () => {
    const moved = sections('hero', 'reviews', 'phone_form', 'footer');
    expect(
      changeText({
        path: 'content.composed.spring_landing.variants.testimonials_first',
        kind: 'added',
        after: { sections: moved },
        sectionsOver: SPRING.sections,
      }),
    ).toBe('spring_landing: new variant testimonials_first: Reviews moved above Phone form');
    // A screen in code whose sections the document does not list: its sections by name.
    expect(
      changeText({
        path: 'content.screens.one_pager.variants.b',
        kind: 'added',
        after: { sections: moved, copy: { fr: {} } },
      }),
    ).toBe(
      'one_pager: new variant b: Heading, Reviews, Phone form, Support links; its own texts in French',
    );
  });

  it('says what a section list moves, hides, shows, adds and removes', () => {
    const before = [
      ...sections('hero', 'phone_form', 'reviews', 'faq'),
      { id: 'picture', visible: false },
    ];
    const after = [
      ...sections('hero', 'reviews', 'phone_form'),
      { id: 'faq', visible: false },
      ...sections('picture', 'guarantee'),
    ];
    expect(sectionMoves(before, after)).toBe(
      'Reviews moved above Phone form; Questions hidden; Picture shown; Guarantee added',
    );
    expect(
      changeText({
        path: 'content.screens.one_pager.sections',
        kind: 'changed',
        before: sections('hero', 'phone_form', 'footer'),
        after: sections('hero', 'footer'),
      }),
    ).toBe('one_pager: Phone form removed');
    // A screen's first list of its own, against the one code composes it with.
    expect(
      changeText({
        path: 'content.screens.one_pager.sections',
        kind: 'added',
        after: sections('hero', 'reviews', 'phone_form'),
        sectionsOver: sections('hero', 'phone_form', 'reviews'),
      }),
    ).toBe('one_pager: Reviews moved above Phone form');
  });

  it('names a text by what it is on its screen, in its language, quoted', () => {
    expect(
      changeText({
        path: 'content.screens.one_pager_ai.copy.en.screens.one_pager_ai.title',
        kind: 'changed',
        before: 'Find any phone',
        after: 'Locate any phone',
      }),
    ).toBe("Headline of one_pager_ai (English): 'Find any phone' → 'Locate any phone'");
    expect(
      changeText({
        path: 'content.composed.spring_landing.variants.b.copy.de.landing.reviews.title',
        kind: 'added',
        after: 'Was Familien sagen',
      }),
    ).toBe(
      "Reviews title of spring_landing, variant b (German): the text in code → 'Was Familien sagen'",
    );
  });

  it('names a picture, a rating and a brand in words', () => {
    expect(
      changeText({
        path: 'content.screens.one_pager.picture',
        kind: 'added',
        after: { id: 'a'.repeat(64), width: 1200, height: 800, alt: { en: 'A map' } },
      }),
    ).toBe('one_pager: new picture (1200 × 800 px)');
    expect(
      changeText({
        path: 'content.screens.one_pager.rating.value',
        kind: 'changed',
        before: 4.5,
        after: 4.6,
      }),
    ).toBe('one_pager: reviews rating value 4.5 → 4.6');
    expect(
      changeText({
        path: 'content.brands.geozilla.supportEmail',
        kind: 'changed',
        before: 'help@geozilla.com',
        after: 'care@geozilla.com',
      }),
    ).toBe('Brand of Geozilla, support email: help@geozilla.com → care@geozilla.com');
  });
});

describe('the change list', () => {
  it("gathers a text's languages into one item, side by side, in the order of the changes", () => {
    const path = (language: string) =>
      `content.screens.one_pager_ai.copy.${language}.screens.one_pager_ai.title`;
    const items = changeItems([
      { path: path('en'), kind: 'changed', before: 'Find any phone', after: 'Locate any phone' },
      { path: 'split.variants.lp1.weight', kind: 'changed', before: 50, after: 30 },
      { path: path('de'), kind: 'added', after: 'Jedes Telefon orten' },
      { path: 'copy.fr.landing.phone.locate', kind: 'removed', before: 'Localiser' },
    ]);
    expect(items).toEqual([
      {
        kind: 'copy',
        title: 'Headline of one_pager_ai',
        key: 'screens.one_pager_ai.title',
        rows: [
          { language: 'English', before: 'Find any phone', after: 'Locate any phone' },
          { language: 'German', before: undefined, after: 'Jedes Telefon orten' },
        ],
        paths: [path('en'), path('de')],
      },
      { kind: 'line', text: 'Weight of lp1: 50 → 30', paths: ['split.variants.lp1.weight'] },
      {
        kind: 'copy',
        title: 'Phone locate',
        key: 'landing.phone.locate',
        rows: [{ language: 'French', before: 'Localiser', after: undefined }],
        paths: ['copy.fr.landing.phone.locate'],
      },
    ]);
  });
});
