import { isCalendarDay } from '../calendar-day';
import type { AnsweredQuestion, Question } from './question';

/**
 * What a visitor answered a question, as the worker keeps it for the visit (a signed session
 * state, never a row per visitor) and sends it on: a choice's value, the values of several
 * choices in the question's order, a whole number, a day (YYYY-MM-DD) or a text.
 */
export type Answer = string | readonly string[] | number;

/** The answers a visitor gave, by question key. */
export type Answers = Readonly<Record<string, Answer>>;

/** An answer's name in later copy (`{{answer.who}}`), the sign-up and the events: `who`. */
export const ANSWER_KEY = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * How the rest of the funnel names a question's answer by its key: `answer:who` is a segment of
 * the experiments' results and an attribute of an experiment's audience.
 */
const ANSWER_NAME_PREFIX = 'answer:';

export type AnswerName = `answer:${string}`;

export function answerName(key: string): AnswerName {
  return `${ANSWER_NAME_PREFIX}${key}`;
}

/** An answer's name in full, as a schema states it (the console's OpenAPI, the MCP tools). */
export const ANSWER_NAME = new RegExp(`^${ANSWER_NAME_PREFIX}${ANSWER_KEY.source.slice(1)}`);

/** The key an answer's name names (`answer:who` → who), or null for any other name. */
export function answerKeyOfName(name: string): string | null {
  return ANSWER_NAME.test(name) ? name.slice(ANSWER_NAME_PREFIX.length) : null;
}

/**
 * Why a posted answer is refused, for the question screen to say in the visitor's language;
 * nothing refused is kept. The last two are the screen's, not the answer's: a question outside
 * the visitor's flow (a forged or stale post), and an answer the visit's cookie has no room for.
 */
export type AnswerProblem =
  | 'not_in_flow'
  | 'no_room'
  | 'none_chosen'
  | 'not_a_choice'
  | 'too_many_chosen'
  | 'not_a_number'
  | 'out_of_range'
  | 'not_a_day'
  | 'out_of_dates'
  | 'empty'
  | 'too_long';

export type CheckedAnswer = { ok: true; answer: Answer } | { ok: false; problem: AnswerProblem };

/** A form's values as a POST carries them: a field once, several times, or not at all. */
export type PostedValues = readonly string[];

const refused = (problem: AnswerProblem): CheckedAnswer => ({ ok: false, problem });

/** Whole numbers as a person types them: an optional minus and digits, nothing else. */
const WHOLE_NUMBER = /^-?\d{1,9}$/;

/**
 * The answer `posted` (the `answer` field's values) gives `asked`, or why it cannot be kept:
 * a value that is none of the choices (a forged or stale form), several for a single choice,
 * more than a multiple choice allows, a number or day outside the question's range, an empty or
 * over-long text. Strict with what a visitor sends: only the choices' own values, numbers as
 * digits, days as the date input writes them.
 */
export function checkAnswer(asked: AnsweredQuestion, posted: PostedValues): CheckedAnswer {
  switch (asked.kind) {
    case 'single':
    case 'pictures': {
      if (posted.length === 0 || posted[0] === '') return refused('none_chosen');
      if (posted.length > 1) return refused('too_many_chosen');
      const [value = ''] = posted;
      return asked.choices.some((choice) => choice.value === value)
        ? { ok: true, answer: value }
        : refused('not_a_choice');
    }
    case 'multiple': {
      const chosen = new Set(posted.filter((value) => value !== ''));
      if (chosen.size === 0) return refused('none_chosen');
      const values = asked.choices.map((choice) => choice.value);
      if ([...chosen].some((value) => !values.includes(value))) return refused('not_a_choice');
      if (asked.most !== undefined && chosen.size > asked.most) return refused('too_many_chosen');
      return { ok: true, answer: values.filter((value) => chosen.has(value)) };
    }
    case 'number': {
      const text = (posted[0] ?? '').trim();
      if (text === '') return refused('empty');
      if (posted.length > 1 || !WHOLE_NUMBER.test(text)) return refused('not_a_number');
      const number = Number(text);
      return number >= asked.min && number <= asked.max
        ? { ok: true, answer: number }
        : refused('out_of_range');
    }
    case 'date': {
      const day = (posted[0] ?? '').trim();
      if (day === '') return refused('empty');
      if (posted.length > 1 || !isCalendarDay(day)) return refused('not_a_day');
      if ((asked.earliest && day < asked.earliest) || (asked.latest && day > asked.latest)) {
        return refused('out_of_dates');
      }
      return { ok: true, answer: day };
    }
    case 'text': {
      if (posted.length > 1) return refused('too_long');
      const text = (posted[0] ?? '').trim();
      if (text === '') return refused('empty');
      // Counted as a person counts characters: an emoji is one, not two UTF-16 units.
      return [...text].length <= asked.maxLength ? { ok: true, answer: text } : refused('too_long');
    }
  }
}

/**
 * The most the answers may take in their cookie, as the browser stores it (its value
 * percent-encoded): with the name and the signature, well within the 4,096 bytes a browser keeps
 * of one cookie (RFC 6265 §6.1), the funnel's other cookies beside it.
 */
export const ANSWERS_COOKIE_MAX = 3000;

/**
 * The answers as the visit's signed cookie holds them: compact JSON, or null when they would not
 * fit (ANSWERS_COOKIE_MAX), so the newest answer is refused rather than an older one lost.
 */
export function encodeAnswers(answers: Readonly<Record<string, Answer>>): string | null {
  const text = JSON.stringify(answers);
  return encodeURIComponent(text).length <= ANSWERS_COOKIE_MAX ? text : null;
}

/**
 * The answers a cookie holds, each kept only if it is an answer's shape (a value, a list of
 * values, a finite number), keyed as a question's key is; anything else read as no answers. The
 * worker signed the cookie, but a question may have changed since: the screens hold each answer
 * to its question again (checkAnswer) before they use it.
 */
export function decodeAnswers(raw: string | undefined): Record<string, Answer> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const answers: Record<string, Answer> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!ANSWER_KEY.test(key)) continue;
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      answers[key] = value;
    } else if (Array.isArray(value) && value.every((each) => typeof each === 'string')) {
      answers[key] = value;
    }
  }
  return answers;
}

/** How the analytics name an answer among an event's properties: `quiz_who`. */
const ANALYTICS_PREFIX = 'quiz_';

/**
 * The answers as the analytics carry them on every event (Amplitude breaks a funnel down by
 * them): a choice's value, several values joined with commas, a number, a day. A text answer
 * never leaves the visit for the analytics, whatever it says; nor does an answer whose question
 * the content no longer asks.
 */
export function analyticsAnswers(
  answers: Readonly<Record<string, Answer>>,
  questions: Readonly<Record<string, AnsweredQuestion>>,
): Record<string, string | number> {
  const carried: Record<string, string | number> = {};
  for (const [key, answer] of Object.entries(answers)) {
    const asked = Object.hasOwn(questions, key) ? questions[key] : undefined;
    if (asked === undefined || asked.kind === 'text') continue;
    carried[`${ANALYTICS_PREFIX}${key}`] = typeof answer === 'object' ? answer.join(',') : answer;
  }
  return carried;
}

/** A question each visitor answers with one of its choices: the experiments split results by it. */
export type ChoiceQuestion = Extract<Question, { kind: 'single' | 'pictures' }>;

/**
 * Whether the experiments' results may be split by the question's answers
 * (worker/experiments/store/answer-statements.ts): one choice per visitor, from a short list.
 * Never a text (the visitor's own words), a number, a day or several choices, whose levels would
 * each be too small to read.
 */
export function splitsResults(asked: Question): asked is ChoiceQuestion {
  return asked.kind === 'single' || asked.kind === 'pictures';
}
