import type { ScreenRef } from '../../../shared/composed-screens';
import {
  type Answer,
  type AnswerProblem,
  type Answers,
  checkAnswer,
} from '../../../shared/quiz/answers';
import { type AnsweredQuestion, takesAnswer } from '../../../shared/quiz/question';
import { nextScreenOf } from '../../../shared/quiz/walk';
import { callSighting, queueSeenAnswer } from '../../collector/seen-steps';
import { keepAnswer, keptAnswers, segmentChoices } from '../../request/kept-answers';
import type { CallVisit } from '../../request/visit';
import { type MalformedForm, readFormFields } from './posted-forms';

/**
 * A quiz question's form (screens/quiz/QuestionForm.tsx), posted with or without script: the
 * answer held to the question (checkAnswer: its own choices and limits), kept with the visit's
 * answers, and the screen its branches send the visitor to (shared/quiz/branches.ts). A refused
 * answer keeps nothing; nor does a post to a question outside the visitor's flow, which no page
 * of theirs offered (a forged or stale form).
 */

export type QuestionPost =
  | { ok: true; next: ScreenRef | null }
  | { ok: false; malformed: MalformedForm }
  | { ok: false; problem: AnswerProblem; status: 400 | 409 };

export async function answerQuestion(
  visit: CallVisit,
  ref: ScreenRef,
  now: () => number,
): Promise<QuestionPost> {
  const { note } = visit;
  const { flow } = visit.arms;
  const { content } = visit.config;
  const asked = content.questions?.[ref];
  if (asked === undefined || !flow.screens.includes(ref)) {
    note('detail', 'question_not_in_flow');
    return { ok: false, problem: 'not_in_flow', status: 409 };
  }
  const form = await readFormFields(visit.request, note, { all: true });
  if (!form.ok) return { ok: false, malformed: form.malformed };
  const kept = await keptAnswers(visit.cookies);
  const given = takesAnswer(asked)
    ? await answered(visit, asked, form.fields.answer, kept, now)
    : { ok: true as const, answers: kept };
  if (!given.ok) return given;
  return { ok: true, next: nextScreenOf(flow.screens, flow.branches ?? {}, ref, given.answers) };
}

/** The visit's answers with the one posted kept among them, or why it was refused. */
async function answered(
  visit: CallVisit,
  asked: AnsweredQuestion,
  field: unknown,
  kept: Answers,
  now: () => number,
): Promise<{ ok: true; answers: Answers } | { ok: false; problem: AnswerProblem; status: 400 }> {
  const checked = checkAnswer(asked, postedValues(field));
  if (!checked.ok) {
    visit.note('detail', `answer_${checked.problem}`);
    return { ok: false, problem: checked.problem, status: 400 };
  }
  const keeping = await keepAnswer(visit.cookies, kept, asked.key, checked.answer);
  if (keeping.kept) {
    seeChoice(visit, asked, checked.answer, now());
    return { ok: true, answers: keeping.answers };
  }
  visit.note('detail', 'answer_no_room');
  return { ok: false, problem: 'no_room', status: 400 };
}

/** The `answer` field's values as the form posted them: none, once, or several times. */
function postedValues(field: unknown): string[] {
  const values = Array.isArray(field) ? field : field === undefined ? [] : [field];
  return values.filter((value): value is string => typeof value === 'string');
}

/**
 * A kept choice, told to the experiments (worker/collector/seen-steps.ts) for their segments by
 * an answer (segmentChoices), from a visitor already exposed to an experiment (pinned to one),
 * who alone has counts to split. Every other answer stays in the visit; a visitor exposed later
 * brings theirs with the exposure (worker/middleware/exposure.ts).
 */
function seeChoice(visit: CallVisit, asked: AnsweredQuestion, answer: Answer, at: number): void {
  const exposed = visit.arms.experiments.assignments.some(
    (assignment) => assignment.state === 'pinned',
  );
  if (!exposed) return;
  const sighting = callSighting(visit);
  for (const choice of segmentChoices({ [asked.key]: answer }, visit.config.content)) {
    queueSeenAnswer(sighting, choice, at);
  }
}
