import type { ScreenRef } from '../../../shared/composed-screens';
import type { ContentDocument } from '../../../shared/config/content';
import { type AnswerProblem, type Answers, checkAnswer } from '../../../shared/quiz/answers';
import { type AnsweredQuestion, takesAnswer } from '../../../shared/quiz/question';
import { nextScreenOf } from '../../../shared/quiz/walk';
import type { ActiveFlow } from '../../funnel/flow';
import type { Note } from '../../http/answer';
import { keepAnswer, keptAnswers } from '../../quiz/kept-answers';
import type { SignedCookies } from '../../request/cookies';
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

/** What answering a question needs of the post's visit. */
export interface QuestionVisit {
  request: Request;
  note: Note;
  cookies: SignedCookies;
  flow: ActiveFlow;
  content: ContentDocument;
}

export async function answerQuestion(visit: QuestionVisit, ref: ScreenRef): Promise<QuestionPost> {
  const { flow, content, note } = visit;
  const asked = content.questions?.[ref];
  if (asked === undefined || !flow.screens.includes(ref)) {
    note('detail', 'question_not_in_flow');
    return { ok: false, problem: 'not_in_flow', status: 409 };
  }
  const form = await readFormFields(visit.request, note, { all: true });
  if (!form.ok) return { ok: false, malformed: form.malformed };
  const kept = await keptAnswers(visit.cookies);
  const given = takesAnswer(asked)
    ? await answered(visit, asked, form.fields.answer, kept)
    : { ok: true as const, answers: kept };
  if (!given.ok) return given;
  return { ok: true, next: nextScreenOf(flow.screens, flow.branches ?? {}, ref, given.answers) };
}

/** The visit's answers with the one posted kept among them, or why it was refused. */
async function answered(
  { cookies, note }: QuestionVisit,
  asked: AnsweredQuestion,
  field: unknown,
  kept: Answers,
): Promise<{ ok: true; answers: Answers } | { ok: false; problem: AnswerProblem; status: 400 }> {
  const checked = checkAnswer(asked, postedValues(field));
  if (!checked.ok) {
    note('detail', `answer_${checked.problem}`);
    return { ok: false, problem: checked.problem, status: 400 };
  }
  const keeping = await keepAnswer(cookies, kept, asked.key, checked.answer);
  if (keeping.kept) return { ok: true, answers: keeping.answers };
  note('detail', 'answer_no_room');
  return { ok: false, problem: 'no_room', status: 400 };
}

/** The `answer` field's values as the form posted them: none, once, or several times. */
function postedValues(field: unknown): string[] {
  const values = Array.isArray(field) ? field : field === undefined ? [] : [field];
  return values.filter((value): value is string => typeof value === 'string');
}
