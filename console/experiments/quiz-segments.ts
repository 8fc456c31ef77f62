import {
  type AnswerDimension,
  type SegmentDimension,
  UNANSWERED_LEVEL,
} from '../../shared/console-api/experiment-results';
import { answerKeyOfName, answerName, splitsResults } from '../../shared/quiz/answers';
import type { Question } from '../../shared/quiz/question';

/**
 * The live quiz's questions the results can be split by (shared/quiz/answers.ts splitsResults),
 * as the segment picker and the segment's tables name them: the question's English title, and
 * each choice's English label. A key asked by several questions (one per flow) is one segment.
 */
export interface QuizSegment {
  dimension: AnswerDimension;
  title: string;
  choices: Readonly<Record<string, string>>;
}

export function quizSegments(questions: Readonly<Record<string, Question>> | undefined) {
  const byKey = new Map<string, QuizSegment>();
  for (const asked of Object.values(questions ?? {})) {
    if (!splitsResults(asked) || byKey.has(asked.key)) continue;
    byKey.set(asked.key, {
      dimension: answerName(asked.key),
      title: asked.title.en ?? asked.key,
      choices: Object.fromEntries(asked.choices.map((c) => [c.value, c.label.en ?? c.value])),
    });
  }
  return [...byKey.values()];
}

/** A segment's level as the tables name it: a quiz choice by its label, else as captured. */
export function levelName(
  dimension: SegmentDimension,
  level: string,
  quiz: readonly QuizSegment[],
): string {
  const key = answerKeyOfName(dimension);
  if (key === null) return `${dimension} ${level}`;
  if (level === UNANSWERED_LEVEL) return `“${key}” not answered`;
  const label = quiz.find((segment) => segment.dimension === dimension)?.choices[level];
  return label === undefined ? `“${key}”: ${level}` : `“${key}”: ${label} (${level})`;
}
