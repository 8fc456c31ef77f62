import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANSWERS_COOKIE_MAX,
  checkAnswer,
  decodeAnswers,
  encodeAnswers,
} from '../../../shared/quiz/answers';
import {
  type AnsweredQuestion,
  CHOICES_MAX,
  question,
  takesAnswer,
} from '../../../shared/quiz/question';

/**
 * The question screens' model (shared/quiz/question.ts): what a marketer may declare, with each
 * refusal at its path in words; and the answers a visitor's post may give one
 * (shared/quiz/answers.ts): only the question's own choices and limits, everything else refused
 * with why, so nothing forged or over-long is kept.
 */

const WHO = {
  kind: 'single',
  key: 'who',
  title: { en: 'Who do you want to keep safe?', de: 'Wen möchtest du schützen?' },
  choices: [
    { value: 'child', label: { en: 'My child', de: 'Mein Kind' } },
    { value: 'partner', label: { en: 'My partner' } },
    { value: 'parent', label: { en: 'A parent' } },
  ],
} as const;

const PICTURE = {
  id: 'a'.repeat(64),
  width: 600,
  height: 400,
  alt: { en: 'A family on a walk' },
};

/** The refusals of `declared`, as path → message. */
function refusals(declared: unknown): Record<string, string> {
  const parsed = question.safeParse(declared);
  if (parsed.success) return {};
  return Object.fromEntries(
    parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
  );
}

const parsedQuestion = (declared: unknown) => question.parse(declared) as AnsweredQuestion;

describe('a question as a marketer declares it', () => {
  it('takes each kind, with the answer kept only where one is asked', () => {
    const kinds = [
      WHO,
      { ...WHO, kind: 'multiple', key: 'worries', most: 2 },
      {
        ...WHO,
        kind: 'pictures',
        choices: WHO.choices.map((choice) => ({ ...choice, picture: PICTURE })),
      },
      {
        kind: 'number',
        key: 'age',
        title: { en: 'How old is your child?' },
        min: 3,
        max: 17,
        unit: { en: 'years' },
      },
      { kind: 'date', key: 'since', title: { en: 'Since when?' }, earliest: '2020-01-01' },
      { kind: 'text', key: 'name', title: { en: 'Their first name' }, maxLength: 40 },
      { kind: 'info', title: { en: 'Families like yours sleep better' }, picture: PICTURE },
      { kind: 'building', title: { en: 'Building your plan…' }, seconds: 4 },
    ];
    const parsed = kinds.map((declared) => question.parse(declared));
    expect(parsed.map((each) => each.kind)).toEqual([
      'single',
      'multiple',
      'pictures',
      'number',
      'date',
      'text',
      'info',
      'building',
    ]);
    expect(parsed.map(takesAnswer)).toEqual([true, true, true, true, true, true, false, false]);
  });

  it('refuses what a visitor could not answer or read, each at its path', () => {
    expect(refusals({ ...WHO, choices: [WHO.choices[0]] })).toEqual({
      choices: 'must offer at least 2 choices',
    });
    expect(
      refusals({
        ...WHO,
        choices: Array.from({ length: CHOICES_MAX + 1 }, (_, n) => ({
          value: `c${n}`,
          label: { en: `C ${n}` },
        })),
      }),
    ).toEqual({ choices: 'must offer at most 12 choices' });
    expect(
      refusals({ ...WHO, choices: [...WHO.choices, { value: 'child', label: { en: 'Kid' } }] }),
    ).toEqual({
      'choices.3.value': '"child" is the value of choice 1 too: each choice needs its own',
    });
    expect(refusals({ ...WHO, title: { de: 'Nur Deutsch' } })).toEqual({
      title: 'must be written in English (en), the text every other language falls back to',
    });
    expect(refusals({ ...WHO, key: 'Who?' })).toEqual({ key: 'must be a key such as "who"' });
    expect(refusals({ ...WHO, kind: 'pictures' })).toEqual({
      choices: 'must give every choice a picture',
    });
    expect(refusals({ kind: 'number', key: 'age', title: { en: 'Age' }, min: 18, max: 3 })).toEqual(
      {
        max: 'must be more than min',
      },
    );
    expect(refusals({ kind: 'building', title: { en: 'Wait' }, seconds: 60 })).toEqual({
      seconds: 'must be at most 10',
    });
    expect(refusals({ ...WHO, kind: 'slider' })).toEqual({
      kind: 'must be a question of a known kind: single, multiple, pictures, number, date, text, info, building, result',
    });
  });

  it('refuses a price typed in a choice’s label, in any language: only the catalogue states one', () => {
    const priced = {
      ...WHO,
      choices: [
        WHO.choices[0],
        { value: 'family', label: { en: 'Family', de: 'Familie für 9,99 €' } },
      ],
    };
    expect(refusals(priced)).toEqual({
      'choices.1.label.de':
        'must not state a price by hand ("9,99 €"): a selling screen\'s prices come from the catalogue, through its placeholders',
    });
  });
});

describe('an answer a visitor posts', () => {
  const who = parsedQuestion(WHO);

  it('is one of the choices’ own values, once', () => {
    expect(checkAnswer(who, ['partner'])).toEqual({ ok: true, answer: 'partner' });
    expect(checkAnswer(who, [])).toEqual({ ok: false, problem: 'none_chosen' });
    expect(checkAnswer(who, ['stranger'])).toEqual({ ok: false, problem: 'not_a_choice' });
    expect(checkAnswer(who, ['child', 'parent'])).toEqual({
      ok: false,
      problem: 'too_many_chosen',
    });
  });

  it('takes nothing but a choice’s value, whatever is posted', () => {
    const values = new Set<string>(WHO.choices.map((choice) => choice.value));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (posted) => {
        const checked = checkAnswer(who, [posted]);
        expect(checked.ok).toBe(values.has(posted));
      }),
    );
  });

  it('keeps several choices in the question’s order, within its most', () => {
    const worries = parsedQuestion({ ...WHO, kind: 'multiple', key: 'worries', most: 2 });
    expect(checkAnswer(worries, ['parent', 'child', 'parent'])).toEqual({
      ok: true,
      answer: ['child', 'parent'],
    });
    expect(checkAnswer(worries, ['child', 'partner', 'parent'])).toEqual({
      ok: false,
      problem: 'too_many_chosen',
    });
    expect(checkAnswer(worries, ['child', 'x'])).toEqual({ ok: false, problem: 'not_a_choice' });
  });

  it('is a whole number in range, a day in range, or a text within its length', () => {
    const age = parsedQuestion({
      kind: 'number',
      key: 'age',
      title: { en: 'Age' },
      min: 3,
      max: 17,
    });
    expect(checkAnswer(age, [' 12 '])).toEqual({ ok: true, answer: 12 });
    expect(checkAnswer(age, ['18'])).toEqual({ ok: false, problem: 'out_of_range' });
    expect(checkAnswer(age, ['1e1'])).toEqual({ ok: false, problem: 'not_a_number' });
    expect(checkAnswer(age, ['7.5'])).toEqual({ ok: false, problem: 'not_a_number' });
    expect(checkAnswer(age, [''])).toEqual({ ok: false, problem: 'empty' });

    const since = parsedQuestion({
      kind: 'date',
      key: 'since',
      title: { en: 'Since?' },
      earliest: '2020-01-01',
    });
    expect(checkAnswer(since, ['2024-02-29'])).toEqual({ ok: true, answer: '2024-02-29' });
    expect(checkAnswer(since, ['2023-02-29'])).toEqual({ ok: false, problem: 'not_a_day' });
    expect(checkAnswer(since, ['2019-12-31'])).toEqual({ ok: false, problem: 'out_of_dates' });

    const name = parsedQuestion({ kind: 'text', key: 'name', title: { en: 'Name' }, maxLength: 5 });
    expect(checkAnswer(name, ['  Anna '])).toEqual({ ok: true, answer: 'Anna' });
    // Five characters as a person counts them, though ten UTF-16 units.
    expect(checkAnswer(name, ['👧👦👧👦👧'])).toEqual({ ok: true, answer: '👧👦👧👦👧' });
    expect(checkAnswer(name, ['Annabel'])).toEqual({ ok: false, problem: 'too_long' });
    expect(checkAnswer(name, ['Anna', 'Bob'])).toEqual({ ok: false, problem: 'too_long' });
  });
});

describe('the answers a visit keeps in its signed cookie', () => {
  it('reads back what it wrote, and nothing but answers’ shapes from a cookie it did not', () => {
    const answers = {
      who: 'child',
      worries: ['sleep', 'school'],
      age: 12,
      name: 'Anna "Annie" ; ok',
    };
    expect(decodeAnswers(encodeAnswers(answers) ?? undefined)).toEqual(answers);
    expect(decodeAnswers(undefined)).toEqual({});
    expect(decodeAnswers('not json')).toEqual({});
    expect(decodeAnswers('[1,2]')).toEqual({});
    expect(
      decodeAnswers(
        JSON.stringify({ who: 'child', 'Bad Key': 'x', age: null, list: [1], deep: { a: 1 } }),
      ),
    ).toEqual({ who: 'child' });
  });

  it('refuses to grow past what a browser keeps of one cookie, rather than lose an answer', () => {
    const long = 'ü'.repeat(200);
    const many = Object.fromEntries(Array.from({ length: 3 }, (_, n) => [`text_${n}`, long]));
    const encoded = encodeAnswers(many);
    expect(encoded).toBeNull();
    const fits = encodeAnswers({ text_0: long });
    expect(fits).not.toBeNull();
    expect(encodeURIComponent(fits ?? '').length).toBeLessThanOrEqual(ANSWERS_COOKIE_MAX);
  });
});
