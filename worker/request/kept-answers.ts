import type { ContentDocument } from '../../shared/config/content';
import {
  type Answer,
  type Answers,
  decodeAnswers,
  encodeAnswers,
  splitsResults,
} from '../../shared/quiz/answers';
import { type SignedCookies, VISIT_COOKIE_OPTIONS } from './cookies';

/**
 * A quiz's answers, kept for the visit in one signed cookie (session state, as the route and
 * the arms are: no row per visitor): the question screens show the kept answer again,
 * their branches read them, later copy says them. Signed for the visitor, as the route and arms
 * are, so a page's script, another visitor or a forged cookie cannot put answers in a visit.
 */
const ANSWERS_COOKIE = 'gf_answers';

/** The visit's kept answers; none when there is no cookie, or one that is not ours. */
export async function keptAnswers(cookies: SignedCookies): Promise<Answers> {
  const read = await cookies.read(ANSWERS_COOKIE);
  if (read.state === 'invalid') cookies.reportInvalid(ANSWERS_COOKIE, read.reason);
  return read.state === 'valid' ? decodeAnswers(read.value) : {};
}

/**
 * Keeps `answer` under `key` with the visit's other answers, replacing one given before; false,
 * and nothing written, when they would not fit in the cookie (encodeAnswers).
 */
export async function keepAnswer(
  cookies: SignedCookies,
  kept: Answers,
  key: string,
  answer: Answer,
): Promise<{ kept: false } | { kept: true; answers: Answers }> {
  const answers = { ...kept, [key]: answer };
  const encoded = encodeAnswers(answers);
  if (encoded === null) return { kept: false };
  await cookies.write(ANSWERS_COOKIE, encoded, VISIT_COOKIE_OPTIONS);
  return { kept: true, answers };
}

/** One choice a visitor gave to the question asked under `key`. */
export interface KeptChoice {
  key: string;
  value: string;
}

/**
 * The answers the experiments split their results by (worker/experiments/store/answer-statements.ts):
 * the choice of each question the content asks that splitsResults.
 */
export function segmentChoices(answers: Answers, content: ContentDocument): KeptChoice[] {
  return Object.values(content.questions ?? {}).flatMap((asked) => {
    if (!splitsResults(asked)) return [];
    const answer = Object.hasOwn(answers, asked.key) ? answers[asked.key] : undefined;
    return typeof answer === 'string' ? [{ key: asked.key, value: answer }] : [];
  });
}
