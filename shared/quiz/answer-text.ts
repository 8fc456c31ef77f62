import { ANSWER_KEY, type Answer } from './answers';
import type { AnsweredQuestion } from './question';

/**
 * A visitor's answers in later copy (the anchors' `{{customId}}`: FunnelFox renders the option's
 * label): `{{answer.who}}` is the label of the choice the visitor made, in their language, and
 * `{{answer.who|someone you love}}` says what to write when they gave none. Several choices read
 * as a list in the language ("your child and your partner"); a number as written; a day in the
 * language's long form; a text as typed. Filled before i18next reads the text, so its own
 * placeholders ({{price}}, {{brand}}) are left as they are.
 */

const PLACEHOLDER = /\{\{\s*answer\.([a-z][a-z0-9_]*)\s*(?:\|([^}]*))?\}\}/g;

/** The answer keys a text's placeholders name, each once, in order of first use. */
export function answerKeysIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))];
}

/**
 * `text` as the copy's checks read it (worker/content/check.ts: i18next's placeholders kept,
 * lengths): each answer placeholder as its fallback, or a word, since it is filled before
 * i18next sees the text.
 */
export function withoutAnswerPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, (_, _key: string, fallback: string | undefined) =>
    (fallback ?? '').trim() === '' ? 'answer' : (fallback ?? '').trim(),
  );
}

/**
 * What is wrong with a text's answer placeholders: a key no question gives (`asked` holds the
 * keys of the questions that may be answered by then).
 */
export function answerPlaceholderProblems(text: string, asked: ReadonlySet<string>): string[] {
  return answerKeysIn(text)
    .filter((key) => !ANSWER_KEY.test(key) || !asked.has(key))
    .map((key) => `{{answer.${key}}} names no question's answer: use the key a question asks`);
}

/** The words an answer stands for in `language`. */
function answerWords(asked: AnsweredQuestion, answer: Answer, language: string): string {
  const labelOf = (value: string) => {
    const choice =
      'choices' in asked ? asked.choices.find((each) => each.value === value) : undefined;
    return choice ? (choice.label[language] ?? choice.label.en ?? value) : value;
  };
  switch (asked.kind) {
    case 'single':
    case 'pictures':
      return typeof answer === 'string' ? labelOf(answer) : '';
    case 'multiple':
      return Array.isArray(answer)
        ? new Intl.ListFormat(language, { type: 'conjunction' }).format(answer.map(labelOf))
        : '';
    case 'number':
      return typeof answer === 'number' ? new Intl.NumberFormat(language).format(answer) : '';
    case 'date':
      return typeof answer === 'string'
        ? new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
            new Date(`${answer}T00:00:00Z`),
          )
        : '';
    case 'text':
      return typeof answer === 'string' ? answer : '';
  }
}

/**
 * `text` with each answer placeholder filled from `answers` (kept for the visit) by the question
 * that asked it: the answer's words, else the placeholder's fallback, else nothing.
 */
export function fillAnswers(
  text: string,
  answers: Readonly<Record<string, Answer>>,
  questions: Readonly<Record<string, AnsweredQuestion>>,
  language: string,
): string {
  return text.replace(PLACEHOLDER, (_, key: string, fallback: string | undefined) => {
    const asked = Object.hasOwn(questions, key) ? questions[key] : undefined;
    const answer = Object.hasOwn(answers, key) ? answers[key] : undefined;
    const words = asked && answer !== undefined ? answerWords(asked, answer, language) : '';
    // A visitor's own text, or a label, is words only: i18next, which reads the filled text
    // next, would take their braces for its own placeholders and nesting.
    return (words !== '' ? words : (fallback ?? '').trim()).replace(/\{\{|\}\}|\$t\(/g, '');
  });
}
