import { describe, expect, it } from 'vitest';
import {
  type FlowBranches,
  type FlowScreens,
  flowBranchProblems,
  questionBranches,
} from '../../../shared/quiz/branches';
import { type AnsweredQuestion, question } from '../../../shared/quiz/question';
import { nextScreenOf, walkOf } from '../../../shared/quiz/walk';

/**
 * A quiz flow's branches (shared/quiz/branches.ts): where a visitor goes after a question, by
 * their answers; and what the validator refuses of a flow, each at its path: a branch to a screen
 * outside the flow, a loop, a question no path reaches, a flow with no way to the checkout.
 */

const WHO = question.parse({
  kind: 'single',
  key: 'who',
  title: { en: 'Who do you want to keep safe?' },
  choices: [
    { value: 'child', label: { en: 'My child' } },
    { value: 'partner', label: { en: 'My partner' } },
  ],
}) as AnsweredQuestion;
const AGE = question.parse({
  kind: 'number',
  key: 'age',
  title: { en: 'How old is your child?' },
  min: 3,
  max: 17,
}) as AnsweredQuestion;

const QUESTIONS: Record<string, AnsweredQuestion> = { q_who: WHO, q_age: AGE };
const SCREENS = ['q_who', 'q_age', 'q_partner', 'signup', 'checkout_v3_tr', 'success'];

function flowOf(screens: readonly string[] = SCREENS): FlowScreens {
  return {
    screens,
    questionOf: (ref) => QUESTIONS[ref] ?? null,
    sells: (ref) => ref === 'checkout_v3_tr',
  };
}

/** A child's visitors asked their age; a partner's skip it. */
const BRANCHES: FlowBranches = {
  q_who: questionBranches.parse({
    branches: [{ when: { test: 'equals', key: 'who', value: 'partner' }, next: 'q_partner' }],
  }),
  q_age: questionBranches.parse({
    branches: [{ when: { test: 'between', key: 'age', min: 3, max: 9 }, next: 'signup' }],
    otherwise: 'signup',
  }),
};

describe('where a visitor goes after a question', () => {
  it('takes the first branch their answers meet, else otherwise, else the next screen', () => {
    expect(nextScreenOf(SCREENS, BRANCHES, 'q_who', { who: 'partner' })).toBe('q_partner');
    expect(nextScreenOf(SCREENS, BRANCHES, 'q_who', { who: 'child' })).toBe('q_age');
    expect(nextScreenOf(SCREENS, BRANCHES, 'q_age', { age: 12 })).toBe('signup');
    expect(nextScreenOf(SCREENS, BRANCHES, 'signup', {})).toBe('checkout_v3_tr');
    expect(nextScreenOf(SCREENS, BRANCHES, 'success', {})).toBeNull();
  });

  it('meets no condition on an answer not given', () => {
    expect(nextScreenOf(SCREENS, BRANCHES, 'q_who', {})).toBe('q_age');
  });

  it('walks a visitor’s answers from the first screen to the end', () => {
    expect(walkOf(SCREENS, BRANCHES, { who: 'child', age: 5 })).toEqual([
      'q_who',
      'q_age',
      'signup',
      'checkout_v3_tr',
      'success',
    ]);
    expect(walkOf(SCREENS, BRANCHES, { who: 'partner' })).toEqual(
      SCREENS.slice(0, 1).concat(SCREENS.slice(2)),
    );
    expect(walkOf([], BRANCHES, {})).toEqual([]);
  });
});

describe('a flow’s branches, as the validator reads them', () => {
  it('takes a flow every visitor can walk to the checkout', () => {
    expect(flowBranchProblems(flowOf(), BRANCHES)).toEqual([]);
  });

  it('refuses a branch back to an earlier screen: a loop', () => {
    const looping = {
      ...BRANCHES,
      q_age: questionBranches.parse({
        branches: [{ when: { test: 'between', key: 'age', min: 3, max: 9 }, next: 'q_who' }],
      }),
    };
    expect(flowBranchProblems(flowOf(), looping)).toEqual([
      {
        path: 'q_age.branches.0.next',
        message: '"q_who" comes before this question: a visitor could go round in a loop',
      },
    ]);
  });

  it('refuses a branch to a screen outside the flow, and conditions no earlier question answers', () => {
    const wrong = {
      q_who: questionBranches.parse({
        branches: [
          { when: { test: 'equals', key: 'who', value: 'grandma' }, next: 'nowhere' },
          { when: { test: 'between', key: 'who', min: 1, max: 2 }, next: 'signup' },
          { when: { test: 'equals', key: 'age', value: '5' }, next: 'signup' },
        ],
      }),
    };
    expect(flowBranchProblems(flowOf(), wrong)).toEqual([
      { path: 'q_who.branches.0.when.value', message: '"grandma" is none of the choices of "who"' },
      { path: 'q_who.branches.0.next', message: '"nowhere" is not a screen of this flow' },
      {
        path: 'q_who.branches.1.when.test',
        message: '"who" is not a number: compare it with equals or one_of',
      },
      { path: 'q_who.branches.2.when.key', message: 'no question before it asks "age"' },
    ]);
  });

  it('refuses a question no path reaches', () => {
    // Every answer of q_who leaves the age question behind.
    const skipping = {
      q_who: questionBranches.parse({
        branches: [{ when: { test: 'one_of', key: 'who', values: ['child'] }, next: 'q_partner' }],
        otherwise: 'q_partner',
      }),
    };
    expect(flowBranchProblems(flowOf(), skipping)).toEqual([
      { path: 'q_age', message: 'no path reaches "q_age"', screen: true },
    ]);
  });

  it('refuses a flow with no way to the checkout, but not the screens a sale leads to', () => {
    const noSale = ['q_who', 'q_age', 'q_partner', 'signup', 'success'];
    expect(flowBranchProblems(flowOf(noSale), {}).map((problem) => problem.message)).toEqual([
      'no path from "q_who" reaches the checkout',
      'no path from "q_age" reaches the checkout',
      'no path from "q_partner" reaches the checkout',
      'no path from "signup" reaches the checkout',
      'no path from "success" reaches the checkout',
    ]);
    const deadEnd = {
      q_who: questionBranches.parse({
        branches: [{ when: { test: 'equals', key: 'who', value: 'partner' }, next: 'success' }],
        otherwise: 'success',
      }),
    };
    expect(flowBranchProblems(flowOf(), deadEnd)).toEqual(
      [
        { path: 'q_age', message: 'no path reaches "q_age"' },
        { path: 'q_partner', message: 'no path reaches "q_partner"' },
        { path: 'signup', message: 'no path reaches "signup"' },
        { path: 'checkout_v3_tr', message: 'no path reaches "checkout_v3_tr"' },
        { path: 'q_who', message: 'no path from "q_who" reaches the checkout' },
      ].map((problem) => ({ ...problem, screen: true })),
    );
  });

  it('refuses a branch after a screen that asks nothing', () => {
    const onSignup = {
      signup: questionBranches.parse({
        branches: [{ when: { test: 'equals', key: 'who', value: 'child' }, next: 'success' }],
      }),
    };
    expect(flowBranchProblems(flowOf(), onSignup)).toEqual([
      {
        path: 'signup',
        message: '"signup" is no question of this flow: only a question\'s answers branch',
      },
    ]);
  });
});
