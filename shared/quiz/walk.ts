import type { Answers } from './answers';
import type { FlowBranches } from './branches';
import type { BranchCondition } from './condition';

/**
 * A visitor's way through a quiz's flow by their answers (./branches.ts, ./condition.ts), as the
 * worker takes them on after each answer and the console's *Test a visitor* walks them. Plain
 * code, without the schemas, so the console's bundle takes it.
 */

/** Whether `answers` meet `condition`: an answer not given meets none. */
export function meets(condition: BranchCondition, answers: Answers): boolean {
  const given = answers[condition.key];
  if (given === undefined) return false;
  switch (condition.test) {
    case 'equals':
      return typeof given === 'object'
        ? given.includes(condition.value)
        : String(given) === condition.value;
    case 'one_of':
      return typeof given === 'object'
        ? given.some((value) => condition.values.includes(value))
        : condition.values.includes(String(given));
    case 'between':
      return typeof given === 'number' && given >= condition.min && given <= condition.max;
  }
}

/**
 * The screen after `current` in a flow of `screens` for a visitor with `answers`: the first
 * branch met, else the question's `otherwise`, else the next in the list; null after the last.
 * A target outside `screens` (which the flow's check refuses) leads nowhere.
 */
export function nextScreenOf<Ref extends string>(
  screens: readonly Ref[],
  branches: FlowBranches,
  current: string,
  answers: Answers,
): Ref | null {
  const own = Object.hasOwn(branches, current) ? branches[current] : undefined;
  const target =
    own?.branches.find((branch) => meets(branch.when, answers))?.next ?? own?.otherwise;
  if (target !== undefined) return screens.find((ref) => ref === target) ?? null;
  const at = screens.indexOf(current as Ref);
  return at >= 0 && at + 1 < screens.length ? (screens[at + 1] ?? null) : null;
}

/**
 * The screens a visitor with `answers` walks through a flow from its first screen: each next
 * screen by the branches, to the end of the list. Branches lead forward only (the flow's check),
 * so the walk ends; it is held to the list's length all the same.
 */
export function walkOf<Ref extends string>(
  screens: readonly Ref[],
  branches: FlowBranches,
  answers: Answers,
): Ref[] {
  const walked: Ref[] = [];
  for (let at = screens[0] ?? null; at !== null && walked.length < screens.length; ) {
    walked.push(at);
    at = nextScreenOf(screens, branches, at, answers);
  }
  return walked;
}
