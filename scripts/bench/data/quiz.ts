import type { Page } from 'playwright-core';
import { isComposedScreenId } from '../../../shared/composed-screens';
import type { ContentDocument } from '../../../shared/config/content';
import type { FlowsDocument } from '../../../shared/config/flows';

/**
 * The quiz every visitor of the data benchmark answers before the landing, so the numbers show
 * what a quiz costs at most: two questions of one choice each, the kind the experiments split
 * their results by (shared/quiz/answers.ts splitsResults). Each answer is a form post the worker
 * keeps in the visit's signed cookie and, the visitor being exposed to the split on the first
 * question, tells the experiments (worker/collector/seen-steps.ts): a queue message and a row of
 * xp_answers in the visitor's shard, with their counts (worker/experiments/store/answer-statements.ts).
 */
const QUESTIONS = [
  {
    screen: 'q_who',
    key: 'who',
    title: 'Who do you want to keep safe?',
    choices: ['Your child', 'Your partner', 'Your parent'],
  },
  {
    screen: 'q_worry',
    key: 'worry',
    title: 'What worries you most?',
    choices: ['Getting lost', 'Getting home late', 'A lost phone'],
  },
] as const;

/** The questions, as the content declares them. */
export function benchQuestions(): NonNullable<ContentDocument['questions']> {
  return Object.fromEntries(
    QUESTIONS.map(({ screen, key, title, choices }) => [
      screen,
      {
        kind: 'single' as const,
        key,
        title: { en: title },
        choices: choices.map((label, index) => ({ value: `c${index + 1}`, label: { en: label } })),
      },
    ]),
  );
}

/** Every flow with the quiz first: whichever flow the split draws, its visitor answers it. */
export function quizFirst(flows: FlowsDocument): FlowsDocument {
  const asked = QUESTIONS.map((question): string => question.screen).filter(isComposedScreenId);
  return {
    ...flows,
    flows: Object.fromEntries(
      Object.entries(flows.flows).map(([name, screens]) => [name, [...asked, ...screens]]),
    ),
  };
}

/**
 * Answers the quiz from the page it opens on, a choice per question (each visitor a different
 * one), by its button: each a plain form post, redirected to the next screen.
 */
export async function answerQuiz(page: Page, visitor: number, timeout: number): Promise<void> {
  for (const [index, question] of QUESTIONS.entries()) {
    await page.getByRole('heading', { name: question.title }).waitFor({ timeout });
    const choice = question.choices[visitor % question.choices.length]!;
    const next = QUESTIONS[index + 1]?.screen;
    await Promise.all([
      page.waitForURL(
        (url) =>
          url.pathname !== `/${question.screen}` &&
          (next === undefined || url.pathname === `/${next}`),
        {
          timeout,
        },
      ),
      page.getByRole('button', { name: choice }).click(),
    ]);
  }
}
