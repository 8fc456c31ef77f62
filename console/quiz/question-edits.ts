import { composedIdProblem } from '../../shared/composed-screen-name';
import type { ContentDocument } from '../../shared/config/content';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { PlanFamilyId } from '../../shared/plans/catalogue';
import { ANSWER_KEY } from '../../shared/quiz/answers';
import type { BranchCondition } from '../../shared/quiz/condition';
import type { Question } from '../../shared/quiz/question';

/**
 * The console's edits of a quiz's questions (shared/config/content.ts `questions`), each a new
 * content document: a question made with what its kind needs to be published, renamed nothing
 * (its name is its address), its texts in English here (the other languages as copy is, one at
 * a time), its choices added, moved and removed. The publish's check holds the rest
 * (worker/quiz/check.ts) and says each refusal at its path beside the field.
 */

export type QuestionKind = Question['kind'];

/** The kinds in the order the picker offers them, with what each asks. */
export const QUESTION_KINDS: readonly { kind: QuestionKind; name: string }[] = [
  { kind: 'single', name: 'One choice' },
  { kind: 'multiple', name: 'Several choices' },
  { kind: 'pictures', name: 'Picture choices' },
  { kind: 'number', name: 'A number' },
  { kind: 'date', name: 'A date' },
  { kind: 'text', name: 'A short text' },
  { kind: 'info', name: 'Information, then Continue' },
  { kind: 'building', name: 'Building the plan (timed)' },
  { kind: 'result', name: 'The visitor’s plan, from their answers' },
];

/** What a kind is called in the console. */
export function kindName(kind: QuestionKind): string {
  return QUESTION_KINDS.find((each) => each.kind === kind)?.name ?? kind;
}

/** Whether a kind's screen keeps an answer under a key. */
export function asksKey(kind: QuestionKind): boolean {
  return !['info', 'building', 'result'].includes(kind);
}

const en = (text: string) => ({ en: text });

/**
 * A new question of `kind`: what the marketer typed, and the rest as its kind needs it to pass
 * the check (two choices to rename, a range, a length, seconds, a line), to be edited next.
 */
export function newQuestion(kind: QuestionKind, key: string, title: string): Question {
  const asked = { key, title: en(title) };
  const choices = [
    { value: 'first', label: en('First answer') },
    { value: 'second', label: en('Second answer') },
  ];
  switch (kind) {
    case 'single':
    case 'multiple':
    case 'pictures':
      return { kind, ...asked, choices } as Question;
    case 'number':
      return { kind, ...asked, min: 1, max: 10 };
    case 'date':
      return { kind, ...asked };
    case 'text':
      return { kind, ...asked, maxLength: 60 };
    case 'info':
      return { kind, title: en(title) };
    case 'building':
      return { kind, title: en(title), seconds: 3 };
    case 'result':
      return { kind, title: en(title), lines: [{ text: en('A line of the plan') }] };
  }
}

/** Why `id` cannot name a new question in `content`, or null when it can. */
export function questionNameProblem(content: ContentDocument, id: string): string | null {
  if (id === '') return 'Give the question a name, such as q_who.';
  const problem = composedIdProblem(id);
  if (problem !== null) return `"${id}" ${problem}.`;
  if (content.questions && Object.hasOwn(content.questions, id)) {
    return `A question named ${id} already exists.`;
  }
  if (content.composed && Object.hasOwn(content.composed, id)) {
    return `A composed screen is named ${id}: give the question a name of its own.`;
  }
  return null;
}

/** Why `key` cannot keep a question's answer, or null when it can. */
export function answerKeyProblem(key: string): string | null {
  return ANSWER_KEY.test(key)
    ? null
    : 'A key is lower-case letters, digits and _, starting with a letter, such as who.';
}

export function withQuestion(
  content: ContentDocument,
  id: string,
  asked: Question,
): ContentDocument {
  return { ...content, questions: { ...content.questions, [id]: asked } };
}

export function withoutQuestion(content: ContentDocument, id: string): ContentDocument {
  const { [id]: _gone, ...others } = content.questions ?? {};
  return { ...content, questions: others };
}

/** `content` with question `id` changed by `change`; as it was when there is none. */
export function editQuestion(
  content: ContentDocument,
  id: string,
  change: (asked: Question) => Question,
): ContentDocument {
  const asked = content.questions?.[id];
  return asked ? withQuestion(content, id, change(asked)) : content;
}

/**
 * A question's text at `field` (title, subtitle, unit) in `language`. Emptied, another language
 * falls back to English, and an optional field left in no language goes; the title's English
 * stays, as every language falls back to it (the check refuses it empty).
 */
export function withText(
  asked: Question,
  field: 'title' | 'subtitle' | 'unit',
  text: string,
  language = 'en',
): Question {
  const own = {
    ...((asked as Record<string, unknown>)[field] as Record<string, string> | undefined),
  };
  if (text === '' && !(field === 'title' && language === 'en')) delete own[language];
  else own[language] = text;
  const { [field]: _old, ...rest } = asked as Record<string, unknown>;
  return (Object.keys(own).length > 0 ? { ...rest, [field]: own } : rest) as Question;
}

type Choosing = Extract<Question, { choices: unknown }>;
type Choice = Choosing['choices'][number];

function withChoices(asked: Question, change: (choices: Choice[]) => Choice[]): Question {
  return 'choices' in asked
    ? ({ ...asked, choices: change([...asked.choices]) } as Question)
    : asked;
}

/** A choice more at the end, its value one the others do not have. */
export function withNewChoice(asked: Question): Question {
  return withChoices(asked, (choices) => {
    const taken = new Set(choices.map((choice) => choice.value));
    let n = choices.length + 1;
    while (taken.has(`answer_${n}`)) n += 1;
    return [...choices, { value: `answer_${n}`, label: en(`Answer ${n}`) }];
  });
}

export function withoutChoice(asked: Question, index: number): Question {
  return withChoices(asked, (choices) => choices.filter((_, at) => at !== index));
}

export function withChoiceMoved(asked: Question, index: number, by: -1 | 1): Question {
  return withChoices(asked, (choices) => {
    const target = index + by;
    const moved = choices[index];
    if (moved === undefined || target < 0 || target >= choices.length) return choices;
    choices.splice(index, 1);
    choices.splice(target, 0, moved);
    return choices;
  });
}

/** A choice's value, or its label in `language` (emptied, another language falls back to English). */
export function withChoice(
  asked: Question,
  index: number,
  change: { value?: string; label?: string },
  language = 'en',
): Question {
  const labelled = (label: Readonly<Record<string, string>>, text: string) => {
    const own = { ...label, [language]: text };
    if (text === '' && language !== 'en') delete own[language];
    return own;
  };
  return withChoices(asked, (choices) =>
    choices.map((choice, at) =>
      at !== index
        ? choice
        : {
            ...choice,
            ...(change.value === undefined ? {} : { value: change.value }),
            ...(change.label === undefined ? {} : { label: labelled(choice.label, change.label) }),
          },
    ),
  );
}

/** The flows as the console drafts them. */
type Flows = ConfigDocument['flows'];

/**
 * Where a choice of question `id` leads in flow `flow`: the screen of its `equals` branch on
 * the question's own key, or null where it follows the flow (or another rule).
 */
export function choiceTarget(
  flows: Flows,
  flow: string,
  id: string,
  key: string,
  value: string,
): string | null {
  const own = flows.branches?.[flow]?.[id];
  const met = own?.branches.find(
    ({ when }) => when.test === 'equals' && when.key === key && when.value === value,
  );
  return met?.next ?? null;
}

/**
 * The flows with choice `value` of question `id` leading to `next` in flow `flow` (an `equals`
 * branch on the question's key), or, for null, following the flow again: its branch goes, and
 * the question's entry with it once it has neither a branch nor an otherwise. Other rules
 * (written in the config document) are kept as they are, after the choices'.
 */
export function withChoiceTarget(
  flows: Flows,
  target: { flow: string; id: string; key: string; value: string },
  next: string | null,
): Flows {
  const { flow, id, key, value } = target;
  const byFlow = flows.branches ?? {};
  const own = byFlow[flow]?.[id];
  const isThis = ({ when }: { when: { test: string; key: string; value?: string } }) =>
    when.test === 'equals' && when.key === key && when.value === value;
  const others = (own?.branches ?? []).filter((branch) => !isThis(branch));
  const branches =
    next === null ? others : [{ when: { test: 'equals' as const, key, value }, next }, ...others];
  const keeps = branches.length > 0 || own?.otherwise !== undefined;
  return placed(flows, flow, id, keeps ? { ...own, branches } : null);
}

/** Where question `id` leads in flow `flow` when no branch is met; null: the flow's next screen. */
export function otherwiseTarget(flows: Flows, flow: string, id: string): string | null {
  return flows.branches?.[flow]?.[id]?.otherwise ?? null;
}

/** The flows with question `id`'s otherwise in flow `flow` set to `next`, or gone for null. */
export function withOtherwise(flows: Flows, flow: string, id: string, next: string | null): Flows {
  const byFlow = flows.branches ?? {};
  const own = byFlow[flow]?.[id];
  const branches = own?.branches ?? [];
  if (branches.length === 0 && next === null) return placed(flows, flow, id, null);
  return placed(flows, flow, id, next === null ? { branches } : { branches, otherwise: next });
}

/** A number question's range and the screen its answers in it lead to. */
export interface RangeTarget {
  min: number;
  max: number;
  next: string;
}

type OwnBranch = OwnBranches['branches'][number];

const isRangeOf = (key: string) => (branch: OwnBranch) =>
  branch.when.test === 'between' && branch.when.key === key;

/** The ranges question `id` (asked under `key`) leads by in flow `flow`, first met first. */
export function rangeTargets(flows: Flows, flow: string, id: string, key: string): RangeTarget[] {
  return (flows.branches?.[flow]?.[id]?.branches ?? []).flatMap((branch) =>
    branch.when.test === 'between' && branch.when.key === key
      ? [{ min: branch.when.min, max: branch.when.max, next: branch.next }]
      : [],
  );
}

/**
 * The flows with question `id`'s ranges in flow `flow` as `ranges` (`between` branches on its
 * key, in their order: the first met leads), the other rules (written in the config document)
 * kept after them; none left and no otherwise, the question's entry goes.
 */
export function withRangeTargets(
  flows: Flows,
  target: { flow: string; id: string; key: string },
  ranges: readonly RangeTarget[],
): Flows {
  const { flow, id, key } = target;
  const own = flows.branches?.[flow]?.[id];
  const others = (own?.branches ?? []).filter((branch) => !isRangeOf(key)(branch));
  const branches = [
    ...ranges.map(({ min, max, next }) => ({
      when: { test: 'between' as const, key, min, max },
      next,
    })),
    ...others,
  ];
  const keeps = branches.length > 0 || own?.otherwise !== undefined;
  return placed(flows, flow, id, keeps ? { ...own, branches } : null);
}

type OwnBranches = NonNullable<NonNullable<Flows['branches']>[string]>[string];

/** The flows with question `id`'s branches in flow `flow` as `own`, or none for null. */
function placed(flows: Flows, flow: string, id: string, own: OwnBranches | null): Flows {
  const byFlow = flows.branches ?? {};
  const { [id]: _old, ...otherQuestions } = byFlow[flow] ?? {};
  const questions = own === null ? otherQuestions : { ...otherQuestions, [id]: own };
  const { [flow]: _flow, ...otherFlows } = byFlow;
  const nextByFlow =
    Object.keys(questions).length > 0 ? { ...otherFlows, [flow]: questions } : otherFlows;
  const { branches: _all, ...rest } = flows;
  return Object.keys(nextByFlow).length > 0 ? { ...rest, branches: nextByFlow } : rest;
}

/**
 * A choice's picture from the library, at its size, or none for null. Its label names it, so
 * it needs no alt text of its own (worker/quiz/check.ts).
 */
export function withChoicePicture(
  asked: Question,
  index: number,
  picture: { id: string; width: number; height: number } | null,
): Question {
  return withChoices(asked, (choices) =>
    choices.map((choice, at) => {
      if (at !== index) return choice;
      const { picture: _old, ...rest } = choice;
      return picture === null
        ? rest
        : {
            ...rest,
            picture: { id: picture.id, width: picture.width, height: picture.height, alt: {} },
          };
    }),
  );
}

/**
 * An information screen's picture from the library, or none for null: the same picture keeps
 * its descriptions, another starts without.
 */
export function withInfoPicture(
  asked: Question,
  picture: { id: string; width: number; height: number } | null,
): Question {
  if (asked.kind !== 'info') return asked;
  const { picture: old, ...rest } = asked;
  if (picture === null) return rest;
  const alt = old?.id === picture.id ? old.alt : {};
  return {
    ...rest,
    picture: { id: picture.id, width: picture.width, height: picture.height, alt },
  };
}

/** What an information screen's picture shows, in `language`; emptied, that language has none. */
export function withPictureAlt(asked: Question, text: string, language: string): Question {
  if (asked.kind !== 'info' || !asked.picture) return asked;
  const { [language]: _old, ...others } = asked.picture.alt;
  const alt = text === '' ? others : { ...others, [language]: text };
  return { ...asked, picture: { ...asked.picture, alt } };
}

/** A choice's preselected plan (a catalogue family), or none for null. */
export function withChoicePlan(
  asked: Question,
  index: number,
  plan: PlanFamilyId | null,
): Question {
  return withChoices(asked, (choices) =>
    choices.map((choice, at) => {
      if (at !== index) return choice;
      const { plan: _old, ...rest } = choice;
      return plan === null ? rest : { ...rest, plan };
    }),
  );
}

type ResultLine = Extract<Question, { kind: 'result' }>['lines'][number];

function withLines(asked: Question, change: (lines: ResultLine[]) => ResultLine[]): Question {
  return asked.kind === 'result' ? { ...asked, lines: change([...asked.lines]) } : asked;
}

/** A result line more at the end, shown always until a condition is picked. */
export function withNewLine(asked: Question): Question {
  return withLines(asked, (lines) => [...lines, { text: en(`Line ${lines.length + 1}`) }]);
}

export function withoutLine(asked: Question, index: number): Question {
  return withLines(asked, (lines) => lines.filter((_, at) => at !== index));
}

/**
 * A result line's text in `language` (emptied, another language falls back to English), or its
 * condition (an answer equals a value, a number is in a range, …), or always for null.
 */
export function withLine(
  asked: Question,
  index: number,
  change: { text?: string; when?: BranchCondition | null },
  language = 'en',
): Question {
  return withLines(asked, (lines) =>
    lines.map((line, at) => {
      if (at !== index) return line;
      let next: ResultLine = line;
      if (change.text !== undefined) {
        const text = { ...line.text, [language]: change.text };
        if (change.text === '' && language !== 'en') delete text[language];
        next = { ...next, text };
      }
      if (change.when !== undefined) {
        const { when: _old, ...rest } = next;
        next = change.when === null ? rest : { ...rest, when: change.when };
      }
      return next;
    }),
  );
}
