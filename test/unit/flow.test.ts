import { describe, expect, it } from 'vitest';
import type { ScreenRef } from '../../shared/composed-screens';
import type { SplitDocument } from '../../shared/config/split';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../worker/config/defaults';
import {
  type ActiveFlow,
  activeFlow,
  applyChange,
  flowNameOf,
  flowProgress,
  nextScreen,
  resolveFlow,
} from '../../worker/funnel/flow';

const split: SplitDocument = {
  version: '1',
  defaultVariant: 'default',
  variants: {
    default: { weight: 50, flow: 'default' },
    'lp11ch8/vc': { weight: 25 },
    'promo/b': { weight: 25, flow: 'lp11ch8b' },
  },
};

describe('flowNameOf', () => {
  it("reads a variant without an explicit flow as its key with '/' as '_' (lp11ch8/vc → lp11ch8_vc)", () => {
    expect(flowNameOf(split, 'lp11ch8/vc')).toBe('lp11ch8_vc');
  });

  it('uses the flow a variant names explicitly', () => {
    expect(flowNameOf(split, 'promo/b')).toBe('lp11ch8b');
    expect(flowNameOf(DEFAULT_SPLIT, 'default')).toBe('default');
  });
});

describe('resolveFlow', () => {
  it('returns the named flow with its screens', () => {
    expect(resolveFlow(DEFAULT_FLOWS, 'lp11ch8_vc')).toEqual({
      name: 'lp11ch8_vc',
      screens: DEFAULT_FLOWS.flows.lp11ch8_vc,
    });
  });

  it("falls back to 'default' for an unknown flow name", () => {
    expect(resolveFlow(DEFAULT_FLOWS, 'no_such_flow')).toEqual({
      name: 'default',
      screens: DEFAULT_FLOWS.flows.default,
    });
  });

  it("falls back to 'default' for a name inherited from Object.prototype", () => {
    expect(resolveFlow(DEFAULT_FLOWS, 'constructor').name).toBe('default');
  });

  it('a variant key maps end to end onto its default flow', () => {
    const flow = resolveFlow(DEFAULT_FLOWS, flowNameOf(split, 'lp11ch8/vc'));
    expect(flow.screens).toContain('checkout_v3_pp');
  });
});

describe('DEFAULT_FLOWS', () => {
  it('are the flow sequences of SPEC.md §2', () => {
    const main = ['one_pager', 'searching', 'signup'];
    const tail = ['upsell_an_private', 'success'];
    expect(DEFAULT_FLOWS.flows).toEqual({
      default: [...main, 'checkout_v3_tr', ...tail],
      lp1ch2: [...main, 'checkout_v3_tr', ...tail],
      lp11ch8: [...main, 'checkout_h3_pp', ...tail],
      lp11ch8_vc: [...main, 'checkout_v3_pp', ...tail],
      lp11ch8b: [...main, 'checkout_h3_pp_braintree', ...tail],
      lp17ch17pr5: [
        'one_pager_all',
        'searching_2',
        'signup_testim',
        'paycheck1_pr5_h_win',
        ...tail,
      ],
      stripe_test: ['auto-signup', 'checkout-test', 'success'],
    });
  });
});

describe('flowProgress (SPEC.md §2 linear progress bar)', () => {
  const flow: ActiveFlow = { name: 'lp17ch17pr5', screens: DEFAULT_FLOWS.flows.lp17ch17pr5! };

  it('counts the screens after the landing, the first of them step 1, the last all of them', () => {
    expect(flowProgress(flow, 'searching_2')).toEqual({ step: 1, steps: 5 });
    expect(flowProgress(flow, 'paycheck1_pr5_h_win')).toEqual({ step: 3, steps: 5 });
    expect(flowProgress(flow, 'success')).toEqual({ step: 5, steps: 5 });
  });

  it('gives the landing, and a screen outside the flow, no step', () => {
    expect(flowProgress(flow, 'one_pager_all')).toBeNull();
    expect(flowProgress(flow, 'checkout_v3_tr')).toBeNull();
  });
});

describe('nextScreen', () => {
  const flow: ActiveFlow = { name: 'lp11ch8', screens: DEFAULT_FLOWS.flows.lp11ch8! };

  it('is the entry after the current screen in the active flow', () => {
    expect(nextScreen(flow, 'one_pager', null)).toBe('searching');
    expect(nextScreen(flow, 'signup', 'features')).toBe('checkout_h3_pp');
  });

  it('is null after the last screen of the flow', () => {
    expect(nextScreen(flow, 'success', 'one_pager')).toBeNull();
  });

  it('is the provided off-flow next for a screen outside the flow', () => {
    expect(nextScreen(flow, 'features', 'upsell_guide')).toBe('upsell_guide');
    expect(nextScreen(flow, 'checkout_v3_tr', null)).toBeNull();
  });

  it.each(Object.keys(DEFAULT_FLOWS.flows))(
    'walking default flow %s from its first screen visits every screen and ends at success',
    (name) => {
      const active = resolveFlow(DEFAULT_FLOWS, name);
      expect(active.name).toBe(name);
      const visited: ScreenRef[] = [];
      let screen: ScreenRef | null = active.screens[0]!;
      while (screen !== null && visited.length <= active.screens.length) {
        visited.push(screen);
        screen = nextScreen(active, screen, null);
      }
      expect(visited).toEqual(active.screens);
      expect(visited.at(-1)).toBe('success');
    },
  );
});

describe('activeFlow', () => {
  const quiz = ['q_who', 'q_age', 'signup', 'checkout_v3_tr', 'success'] as ScreenRef[];
  const flows = {
    version: 'quiz',
    flows: { ...DEFAULT_FLOWS.flows, quiz },
    branches: {
      quiz: {
        q_who: {
          branches: [
            {
              when: { test: 'equals' as const, key: 'who', value: 'partner' },
              next: 'checkout_v3_tr',
            },
          ],
          otherwise: 'q_age',
        },
      },
    },
  };

  it('gives a flow its branches, and one without any none', () => {
    expect(activeFlow(flows, { flow: 'quiz', screens: quiz }).branches).toEqual(
      flows.branches.quiz,
    );
    expect(
      activeFlow(flows, { flow: 'default', screens: DEFAULT_FLOWS.flows.default ?? [] }),
    ).toEqual({ name: 'default', screens: DEFAULT_FLOWS.flows.default });
  });

  it('leads a branch to the paywall a test swapped in at its place', () => {
    const shape = applyChange(
      { flow: 'quiz', screens: quiz, plans: null, upsellPlans: null, guidePlans: null },
      { screens: { paywall: 'checkout_h3_pp' } },
      flows,
    );
    expect(shape.screens).toEqual(['q_who', 'q_age', 'signup', 'checkout_h3_pp', 'success']);
    const walked = activeFlow(flows, shape);
    expect(walked.branches?.q_who?.branches[0]?.next).toBe('checkout_h3_pp');
    expect(walked.branches?.q_who?.otherwise).toBe('q_age');
  });
});

describe('flowProgress on a quiz', () => {
  it('counts a flow that opens with a question from that question, and others after the landing', () => {
    const quiz: ActiveFlow = {
      name: 'quiz',
      screens: ['q_who', 'signup', 'checkout_v3_tr'] as ScreenRef[],
    };
    const content = { questions: { q_who: {} } };
    expect(flowProgress(quiz, 'q_who' as ScreenRef, content)).toEqual({ step: 1, steps: 3 });
    expect(flowProgress(quiz, 'checkout_v3_tr', content)).toEqual({ step: 3, steps: 3 });
    expect(flowProgress(quiz, 'success', content)).toBeNull();
    const landing: ActiveFlow = {
      name: 'default',
      screens: ['one_pager', 'q_who', 'signup'] as ScreenRef[],
    };
    expect(flowProgress(landing, 'one_pager', content)).toBeNull();
    expect(flowProgress(landing, 'q_who' as ScreenRef, content)).toEqual({ step: 1, steps: 2 });
  });
});
