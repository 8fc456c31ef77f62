import * as z from 'zod';
import { isCalendarDay } from '../calendar-day';
import { contentPicture } from '../config/content-picture';
import { visitorTextProblems } from '../copy-rules';
import { PLAN_FAMILY_IDS } from '../plans/catalogue';
import { answerKey, branchCondition } from './condition';

/**
 * A question screen of a quiz funnel, of the kinds the quiz builders offer (FunnelFox, Zellify,
 * RevenueCat's Funnels): what it asks, in every language the marketer wrote it in (English
 * always, the others one at a time, as copy is), and what answers it takes.
 * Declared once for the worker, the console and the CLI; the answer a visitor posts is held to it
 * by checkAnswer (./answers.ts).
 *
 * Kinds:
 * - `single`: one choice; the page goes on when a choice is clicked or confirmed with Enter or
 *   Space, never on a focus change (WCAG 3.2.2: native radios select on an arrow key);
 * - `multiple`: one or more choices, then Continue;
 * - `pictures`: one choice among pictures of the library, as `single`;
 * - `number`: a whole number in a range, with its unit;
 * - `date`: a day, between two days if the marketer says;
 * - `text`: a short text, kept for the visit and the product API, never sent to analytics;
 * - `info`: a screen between questions, a picture and Continue;
 * - `building`: a timed "building your plan" step that moves on by itself and can be skipped;
 * - `result`: the visitor's plan, built from their answers: the lines whose condition their
 *   answers meet (a line without one always shows), then Continue.
 */

const QUESTION_KINDS = [
  'single',
  'multiple',
  'pictures',
  'number',
  'date',
  'text',
  'info',
  'building',
  'result',
] as const;

/** The kinds whose screen takes an answer, kept under the question's `key`. */
export const ANSWERED_KINDS = ['single', 'multiple', 'pictures', 'number', 'date', 'text'] as const;
export type AnsweredKind = (typeof ANSWERED_KINDS)[number];

/** A choice's stable value, sent to the product API and analytics whatever its label says. */
const CHOICE_VALUE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Choices a question offers: at least two, and few enough to read on a phone. */
const CHOICES_MIN = 2;
export const CHOICES_MAX = 12;

/** The longest text answer a question may ask for. */
const TEXT_ANSWER_MAX = 200;

/** The lines a result screen may have, every one shown at most. */
const RESULT_LINES_MAX = 12;

/** How long a `building` step runs before it moves on by itself. */
const BUILDING_SECONDS_MIN = 1;
const BUILDING_SECONDS_MAX = 10;

const language = z.string().regex(/^[a-z]{2}$/, 'must be a language code');

/**
 * Words per language, English among them, each at most `max` characters. A label may choose a
 * plan later (a branch, a preselection), so no price is typed by hand in any, and no
 * bidirectional control (shared/copy-rules.ts).
 */
function languageText(max: number) {
  return z
    .record(
      language,
      z
        .string('must be a text')
        .trim()
        .min(1, 'must not be empty')
        .max(max, `must be at most ${max} characters`)
        .superRefine((text, context) => {
          for (const problem of visitorTextProblems(text, { selling: true })) {
            context.addIssue({ code: 'custom', message: problem });
          }
        }),
    )
    .refine((texts) => Object.hasOwn(texts, 'en'), {
      message: 'must be written in English (en), the text every other language falls back to',
    });
}

const title = languageText(120);
const subtitle = languageText(240).optional();

const choice = z.strictObject({
  value: z
    .string()
    .regex(CHOICE_VALUE, 'must be a value such as "child" (lower case, digits, - or _)'),
  label: languageText(60),
  picture: contentPicture.optional(),
  /**
   * The plan the paywalls after it preselect for a visitor who chose it, where they offer it: a
   * family of the catalogue, so a choice never sets a price, only which offered plan is ticked.
   */
  plan: z.enum(PLAN_FAMILY_IDS, 'must be a plan family such as "monthly_7d_intro"').optional(),
});

/** The choices of a choosing question: CHOICES_MIN to CHOICES_MAX, each value once. */
const choices = z
  .array(choice)
  .min(CHOICES_MIN, `must offer at least ${CHOICES_MIN} choices`)
  .max(CHOICES_MAX, `must offer at most ${CHOICES_MAX} choices`)
  .superRefine((list, context) => {
    const seen = new Map<string, number>();
    for (const [index, { value }] of list.entries()) {
      const first = seen.get(value);
      if (first !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [index, 'value'],
          message: `"${value}" is the value of choice ${first + 1} too: each choice needs its own`,
        });
      }
      seen.set(value, index);
    }
  });

const asked = { key: answerKey, title, subtitle };

const isoDay = z.string().refine(isCalendarDay, 'must be a day of the calendar as YYYY-MM-DD');

export const question = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('single'), ...asked, choices }),
    z.strictObject({
      kind: z.literal('multiple'),
      ...asked,
      choices,
      /** At most this many may be chosen; absent, any. */
      most: z.int().min(1).max(CHOICES_MAX).optional(),
    }),
    z.strictObject({
      kind: z.literal('pictures'),
      ...asked,
      choices: choices.refine(
        (list) => list.every((each) => each.picture !== undefined),
        'must give every choice a picture',
      ),
    }),
    z
      .strictObject({
        kind: z.literal('number'),
        ...asked,
        min: z.int('must be a whole number'),
        max: z.int('must be a whole number'),
        /** What the number counts (`years`), per language; absent, none shown. */
        unit: languageText(20).optional(),
      })
      .refine((range) => range.min < range.max, {
        message: 'must be more than min',
        path: ['max'],
      }),
    z
      .strictObject({
        kind: z.literal('date'),
        ...asked,
        earliest: isoDay.optional(),
        latest: isoDay.optional(),
      })
      .refine((range) => !range.earliest || !range.latest || range.earliest < range.latest, {
        message: 'must be after earliest',
        path: ['latest'],
      }),
    z.strictObject({
      kind: z.literal('text'),
      ...asked,
      maxLength: z
        .int('must be a whole number of characters')
        .min(1, 'must be at least 1')
        .max(TEXT_ANSWER_MAX, `must be at most ${TEXT_ANSWER_MAX}`),
    }),
    z.strictObject({
      kind: z.literal('info'),
      title,
      subtitle,
      picture: contentPicture.optional(),
    }),
    z.strictObject({
      kind: z.literal('result'),
      title,
      subtitle,
      /** The plan's lines, in order: each shown when its condition is met, or always. */
      lines: z
        .array(z.strictObject({ when: branchCondition.optional(), text: languageText(200) }))
        .min(1, 'must have at least one line')
        .max(RESULT_LINES_MAX, `must have at most ${RESULT_LINES_MAX} lines`),
    }),
    z.strictObject({
      kind: z.literal('building'),
      title,
      subtitle,
      seconds: z
        .int('must be a whole number of seconds')
        .min(BUILDING_SECONDS_MIN, `must be at least ${BUILDING_SECONDS_MIN}`)
        .max(BUILDING_SECONDS_MAX, `must be at most ${BUILDING_SECONDS_MAX}`),
    }),
  ],
  `must be a question of a known kind: ${QUESTION_KINDS.join(', ')}`,
);
export type Question = z.output<typeof question>;
export type AnsweredQuestion = Extract<Question, { kind: AnsweredKind }>;

/** Whether the screen takes an answer (kept under its key), rather than being read and left. */
export function takesAnswer(asked: Question): asked is AnsweredQuestion {
  return (ANSWERED_KINDS as readonly string[]).includes(asked.kind);
}

/** A question's text in `language`, else in English, which every text of a question has. */
export function textIn(texts: Readonly<Record<string, string>>, language: string): string {
  return texts[language] ?? texts.en ?? '';
}
