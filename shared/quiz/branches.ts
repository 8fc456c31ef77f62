import * as z from 'zod';
import { type BranchCondition, branchCondition } from './condition';
import type { AnsweredQuestion } from './question';

/**
 * Where a flow goes after a question: the first branch whose condition the visitor's answers
 * meet, else `otherwise`, else the flow's next screen (the anchors branch per answer, and on
 * earlier answers: FunnelFox maps each choice to a screen, Zellify reads any earlier answer).
 * A branch only ever leads forward in the flow's list, so no answers can send a visitor round in
 * a loop; and flowBranchProblems holds a flow to every visitor reaching its checkout.
 */

/** A question's way on: its branches in order, and where it goes when none is met. */
export const questionBranches = z
  .strictObject({
    branches: z
      .array(z.strictObject({ when: branchCondition, next: z.string().min(1) }))
      .max(12, 'must have at most 12 branches'),
    /** Where a visitor goes when no branch is met; absent, the flow's next screen. */
    otherwise: z.string().min(1).optional(),
  })
  .refine((own) => own.branches.length > 0 || own.otherwise !== undefined, {
    message: 'must have a branch or an otherwise',
    path: ['branches'],
  });
export type QuestionBranches = z.output<typeof questionBranches>;

/** A flow's branches, by the question screen they follow. */
export type FlowBranches = Readonly<Record<string, QuestionBranches>>;

/**
 * A problem with a flow's branches, at its path under the flow's branches
 * (`q_who.branches.0.next`), or with one of its screens (`screen`: one no path reaches, or
 * from which none reaches the checkout), which the path then names.
 */
export interface BranchProblem {
  path: string;
  message: string;
  screen?: true;
}

/** What flowBranchProblems needs to know of the flow's screens. */
export interface FlowScreens {
  screens: readonly string[];
  /** The question a screen asks, if it is a question screen that takes an answer. */
  questionOf(ref: string): AnsweredQuestion | null;
  /** Whether a screen is where a visitor pays (a paywall or checkout). */
  sells(ref: string): boolean;
}

/** The screens each screen may lead to: its branches and otherwise, else the next in the list. */
function edgesOf(flow: FlowScreens, branches: FlowBranches, ref: string): string[] {
  const at = flow.screens.indexOf(ref);
  const next = flow.screens[at + 1];
  const own = Object.hasOwn(branches, ref) ? branches[ref] : undefined;
  if (own === undefined) return next === undefined ? [] : [next];
  const targets = own.branches.map((branch) => branch.next);
  const fallback = own.otherwise ?? next;
  return fallback === undefined ? targets : [...targets, fallback];
}

/**
 * What is wrong with a flow's branches, each at its path: a branch after a screen that asks
 * nothing, a condition on an answer no earlier question gives (or a value none of its choices
 * has), a branch to a screen outside the flow or not after the question (a loop), a screen no
 * path reaches, and a screen from which no path reaches the checkout.
 */
export function flowBranchProblems(flow: FlowScreens, branches: FlowBranches): BranchProblem[] {
  const problems: BranchProblem[] = [];
  const position = new Map(flow.screens.map((ref, index) => [ref, index]));
  for (const [ref, own] of Object.entries(branches)) {
    const at = position.get(ref);
    if (at === undefined || flow.questionOf(ref) === null) {
      problems.push({
        path: ref,
        message: `"${ref}" is no question of this flow: only a question's answers branch`,
      });
      continue;
    }
    const earlier = new Map(
      flow.screens.slice(0, at + 1).flatMap((screen) => {
        const asked = flow.questionOf(screen);
        return asked ? [[asked.key, asked] as const] : [];
      }),
    );
    for (const [index, branch] of own.branches.entries()) {
      problems.push(...conditionProblems(branch.when, earlier, `${ref}.branches.${index}.when`));
      problems.push(...targetProblem(branch.next, at, position, `${ref}.branches.${index}.next`));
    }
    if (own.otherwise !== undefined) {
      problems.push(...targetProblem(own.otherwise, at, position, `${ref}.otherwise`));
    }
  }
  if (problems.length > 0) return problems;
  return [...reachProblems(flow, branches)];
}

/** What is wrong with a condition on the answers `earlier` questions give, at `path`. */
export function conditionProblems(
  condition: BranchCondition,
  earlier: ReadonlyMap<string, AnsweredQuestion>,
  path: string,
): BranchProblem[] {
  const asked = earlier.get(condition.key);
  if (asked === undefined) {
    return [{ path: `${path}.key`, message: `no question before it asks "${condition.key}"` }];
  }
  if (condition.test === 'between') {
    return asked.kind === 'number'
      ? []
      : [
          {
            path: `${path}.test`,
            message: `"${condition.key}" is not a number: compare it with equals or one_of`,
          },
        ];
  }
  if (!('choices' in asked)) return [];
  const values = new Set(asked.choices.map((choice) => choice.value));
  const named = condition.test === 'equals' ? [condition.value] : condition.values;
  return named
    .filter((value) => !values.has(value))
    .map((value) => ({
      path: `${path}.${condition.test === 'equals' ? 'value' : 'values'}`,
      message: `"${value}" is none of the choices of "${condition.key}"`,
    }));
}

function targetProblem(
  target: string,
  from: number,
  position: ReadonlyMap<string, number>,
  path: string,
): BranchProblem[] {
  const to = position.get(target);
  if (to === undefined) return [{ path, message: `"${target}" is not a screen of this flow` }];
  if (to <= from) {
    return [
      {
        path,
        message: `"${target}" comes before this question: a visitor could go round in a loop`,
      },
    ];
  }
  return [];
}

/** The screens no path reaches, and those from which no path reaches the checkout. */
function* reachProblems(flow: FlowScreens, branches: FlowBranches): Generator<BranchProblem> {
  const [first] = flow.screens;
  if (first === undefined) return;
  const reached = new Set<string>([first]);
  const queue = [first];
  for (let ref = queue.shift(); ref !== undefined; ref = queue.shift()) {
    for (const next of edgesOf(flow, branches, ref)) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  for (const ref of flow.screens) {
    if (!reached.has(ref)) yield { path: ref, message: `no path reaches "${ref}"`, screen: true };
  }
  // Edges only lead forward, so one pass from the last screen back finds who reaches a sale, and
  // one from the first which screens a sale leads to (an upsell, the end), which need none.
  const sells = new Set<string>();
  for (const ref of [...flow.screens].reverse()) {
    if (flow.sells(ref) || edgesOf(flow, branches, ref).some((next) => sells.has(next))) {
      sells.add(ref);
    }
  }
  const afterSale = new Set<string>();
  for (const ref of flow.screens) {
    if (flow.sells(ref) || afterSale.has(ref)) {
      for (const next of edgesOf(flow, branches, ref)) afterSale.add(next);
    }
  }
  for (const ref of flow.screens) {
    if (reached.has(ref) && !sells.has(ref) && !afterSale.has(ref)) {
      yield { path: ref, message: `no path from "${ref}" reaches the checkout`, screen: true };
    }
  }
}
