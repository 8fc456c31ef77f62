import { describe, expect, it } from 'vitest';
import {
  answerKeysIn,
  answerPlaceholderProblems,
  fillAnswers,
} from '../../../shared/quiz/answer-text';
import { type AnsweredQuestion, question } from '../../../shared/quiz/question';

/**
 * Answers in later copy (shared/quiz/answer-text.ts): `{{answer.who}}` as the chosen label in
 * the visitor's language, several as a list, a number and a day as the language writes them, a
 * fallback where nothing was answered; i18next's own placeholders left for it; and a placeholder
 * naming no earlier question refused.
 */

const QUESTIONS: Record<string, AnsweredQuestion> = {
  who: question.parse({
    kind: 'single',
    key: 'who',
    title: { en: 'Who?' },
    choices: [
      { value: 'child', label: { en: 'your child', de: 'dein Kind' } },
      { value: 'partner', label: { en: 'your partner' } },
    ],
  }) as AnsweredQuestion,
  worries: question.parse({
    kind: 'multiple',
    key: 'worries',
    title: { en: 'Worries?' },
    choices: [
      { value: 'school', label: { en: 'the way to school', de: 'der Schulweg' } },
      { value: 'night', label: { en: 'nights out', de: 'Nächte draußen' } },
    ],
  }) as AnsweredQuestion,
  age: question.parse({
    kind: 'number',
    key: 'age',
    title: { en: 'Age?' },
    min: 1,
    max: 99,
  }) as AnsweredQuestion,
  since: question.parse({
    kind: 'date',
    key: 'since',
    title: { en: 'Since?' },
  }) as AnsweredQuestion,
};

describe('answers in later copy', () => {
  it('reads the chosen label in the visitor’s language, else English', () => {
    const text = 'A plan for {{answer.who}}, from {{price}}';
    expect(fillAnswers(text, { who: 'child' }, QUESTIONS, 'de')).toBe(
      'A plan for dein Kind, from {{price}}',
    );
    expect(fillAnswers(text, { who: 'partner' }, QUESTIONS, 'de')).toBe(
      'A plan for your partner, from {{price}}',
    );
  });

  it('writes several choices as a list, a number and a day as the language does', () => {
    const answers = { worries: ['school', 'night'], age: 12000, since: '2026-03-14' };
    expect(
      fillAnswers('{{answer.worries}}; {{answer.age}}; {{answer.since}}', answers, QUESTIONS, 'en'),
    ).toBe('the way to school and nights out; 12,000; March 14, 2026');
    expect(fillAnswers('{{answer.worries}}; {{answer.age}}', answers, QUESTIONS, 'de')).toBe(
      'der Schulweg und Nächte draußen; 12.000',
    );
  });

  it('writes the fallback where nothing was answered, else nothing', () => {
    expect(fillAnswers('Keep {{ answer.who | someone you love }} safe', {}, QUESTIONS, 'en')).toBe(
      'Keep someone you love safe',
    );
    expect(fillAnswers('Keep {{answer.who}} safe', {}, QUESTIONS, 'en')).toBe('Keep  safe');
    // An answer its question no longer offers reads as its value, never as a missing label.
    expect(fillAnswers('{{answer.who}}', { who: 'grandma' }, QUESTIONS, 'en')).toBe('grandma');
  });

  it('names the keys a text uses, and refuses one no earlier question asks', () => {
    const text = 'For {{answer.who}} and {{answer.pet|your pet}}, {{answer.who}}';
    expect(answerKeysIn(text)).toEqual(['who', 'pet']);
    expect(answerPlaceholderProblems(text, new Set(['who']))).toEqual([
      "{{answer.pet}} names no question's answer: use the key a question asks",
    ]);
  });
});
