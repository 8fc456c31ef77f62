import * as z from 'zod';
import { COMPOSED_SCREEN_ID, composedIdProblem } from '../composed-screen-name';
import { isComposedScreenId, isScreenRef } from '../composed-screens';
import { PLAN_FAMILY_IDS } from '../plans/catalogue';
import { question } from '../quiz/question';
import { REASON_KEY, SAVE_OFFER_REASONS_MAX } from '../save-offer-reasons';
import { brandsSchema } from './brands';
import { contentPicture } from './content-picture';

export type { ContentPicture } from './content-picture';

import { atMostEntries, screenId } from './fields';
import { CONFIG_MAX_BYTES, type ParseResult, parseJsonDocument } from './parse-document';

/**
 * The `content` config section (KV key `content`), declared once for the worker, the console and
 * the CLI: what visitors read and see, per screen, in a marketer's hands. A screen made of
 * sections (screens/kit/arrangement.ts) may list its sections in another order, hide the
 * optional ones or add sections of its slot, and override the copy its sections read, per
 * language. A screen the document does not name is the screen in code. This is its shape; the
 * rules against the kit and the bundled copy (sections a slot needs, keys a section reads,
 * placeholders kept, lengths, languages) are checked after it, in worker/content/check.ts.
 */

/** A section on a screen: its kind, which is its id there (`reviews`), and whether it shows. */
const placedSection = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be a section id such as "reviews"'),
  visible: z.boolean('must be true or false').default(true),
});

/** Copy is text: at most this long before the section's own limit is checked. */
const TEXT_MAX = 2000;

const text = z.string('must be a text').max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`);

/** A key the bundled copy has: dotted, as the copy document writes it (`landing.phone.locate`). */
const copyKey = z.string().regex(/^[a-z][A-Za-z0-9_.]{0,119}$/, 'must be a copy key');

const languageCopy = z.record(copyKey, text, 'must map copy keys to texts');

/** A rating between these, as the stores give it: stars out of five. */
const RATING_LOWEST = 1;
const RATING_HIGHEST = 5;
const SOURCE_MAX = 60;

/**
 * The rating and review count the screen's reviews show, and where they come from (`{ "value":
 * 4.6, "count": 12400, "source": "App Store" }`): the marketer's figures, read off the store or
 * the review site they name; code never makes one up, so a screen without them shows none. The
 * value to one decimal, as the stores show it; the count a whole number, which each language
 * writes its own way; the source always, for a figure nobody can look up is no proof.
 */
const reviewRating = z
  .strictObject({
    value: z
      .number('must be a number such as 4.6')
      .min(RATING_LOWEST, `must be between ${RATING_LOWEST} and ${RATING_HIGHEST}`)
      .max(RATING_HIGHEST, `must be between ${RATING_LOWEST} and ${RATING_HIGHEST}`)
      .refine(
        (value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9,
        'must have at most one decimal, such as 4.6',
      )
      .optional(),
    count: z
      .int('must be a whole number such as 12400, without separators')
      .min(1, 'must be at least 1')
      .max(1_000_000_000, 'must be at most 1000000000')
      .optional(),
    source: z
      .string('must be a text such as "App Store"')
      .trim()
      .min(1, 'must name where the rating comes from, such as "App Store"')
      .max(SOURCE_MAX, `must be at most ${SOURCE_MAX} characters`)
      .optional(),
  })
  .superRefine((rating, context) => {
    if (rating.value === undefined && rating.count === undefined) {
      context.addIssue({ code: 'custom', message: 'must give a value, a count or both' });
    } else if (rating.source === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['source'],
        message: 'must name where the rating comes from, such as "App Store"',
      });
    }
  });
export type ReviewRating = z.output<typeof reviewRating>;

/** What a screen shows: its sections, its copy and its picture, each optional. */
const screenBody = {
  /** The sections in the order shown; absent, the screen's own. */
  sections: z
    .array(placedSection)
    .min(1, 'must list at least one section')
    .max(24, 'must list at most 24 sections')
    .optional(),
  /** Language (`en`, `de`) → copy key → text. */
  copy: z
    .record(z.string().regex(/^[a-z]{2}$/, 'must be a language code'), languageCopy)
    .optional(),
  /** The picture its `picture` section shows; a variant's replaces the screen's (a picture test). */
  picture: contentPicture.optional(),
};

/** A content variant's name, as an experiment's variant names it (`testimonials_first`). */
export const contentVariantName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a name such as "testimonials_first"');

/**
 * The content variant each screen shows (`{ "one_pager": "testimonials_first" }`): what an
 * experiment's variant changes, or what a route shows once a content test shipped to it.
 */
export const contentChoices = z.partialRecord(
  z.string().refine((id): boolean => isScreenRef(id)),
  contentVariantName,
  {
    error: (issue) =>
      issue.code === 'invalid_key' ? `unknown screen id "${String(issue.input)}"` : undefined,
  },
);
export type ContentChoices = z.output<typeof contentChoices>;

const screenVariant = z.strictObject(screenBody);

const screenContent = z.strictObject({
  ...screenBody,
  /**
   * What its reviews section says of the app's rating (a variant does not change it: a figure
   * is a fact, not a text to test).
   */
  rating: reviewRating.optional(),
  /**
   * Alternatives an experiment tests against what the screen shows (shared/config/experiments.ts
   * `change.content`), each laid over it: its sections, if listed, instead of the screen's; its
   * texts over the screen's, language by language; its picture, if any, instead of the screen's.
   */
  variants: atMostEntries(z.record(contentVariantName, screenVariant), 10, 'variants').optional(),
});

/** A composed screen's id (shared/composed-screens.ts); its record says why one is refused. */
const composedId = z
  .string()
  .regex(COMPOSED_SCREEN_ID)
  .refine((id): boolean => isComposedScreenId(id));

/**
 * A new screen a marketer composes for a slot: the screen in code it starts `from` (made of
 * sections; its behaviour, step and page name are the new screen's), and what it shows, as a
 * screen's content says it, with its own variants. `slot` is said, not derived, so a document
 * reads as what the marketer meant; worker/content/check.ts holds it to `from`'s.
 */
const composedScreen = z.strictObject({
  slot: z.string().regex(/^[a-z]+$/, 'must be a slot such as "landing"'),
  from: screenId,
  ...screenContent.shape,
});

/** A save offer's words in each language the marketer wrote it in (`{ "en": "…" }`). */
const offerText = z.record(
  z.string().regex(/^[a-z]{2}$/, 'must be a language code'),
  z
    .string('must be a text')
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters'),
);

/**
 * What a save offer may do with one tap, through the product API (docs/marketers.md, "The save
 * offer before a cancel"; docs/product-api.md, "Save offer actions"):
 * - `discount`: `percentOff` off each of the next `renewals` renewals, a coupon the product API
 *   applies;
 * - `pause`: no renewal for `months` months, then it renews as before;
 * - `switch`: move to the plan `family` at the subscription's currency, offered only where it is
 *   a cheaper plan of the same role and period kind as the subscription's
 *   (shared/plans/save-offer-actions.ts).
 */
export const saveOfferAction = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('discount'),
      percentOff: z
        .int('must be a whole percentage')
        .min(5, 'must be at least 5')
        .max(100, 'must be at most 100'),
      renewals: z
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(12, 'must be at most 12'),
    }),
    z.strictObject({
      kind: z.literal('pause'),
      months: z
        .int('must be a whole number of months')
        .min(1, 'must be at least 1')
        .max(3, 'must be at most 3'),
    }),
    z.strictObject({
      kind: z.literal('switch'),
      family: z.enum(PLAN_FAMILY_IDS, 'must be a plan family such as "upsell_monthly_599"'),
    }),
  ],
  'must be a discount, a pause or a switch',
);
export type SaveOfferAction = z.output<typeof saveOfferAction>;

/**
 * The save offer the subscriber's page shows once before a cancel (docs/marketers.md, "The save
 * offer"): a title and a text per language, and Keep my subscription beside the cancel, which
 * stays one tap away. A language the offer is not written in shows none: the cancel is never
 * held up for want of words.
 */
const saveOffer = z.strictObject({
  title: offerText,
  text: offerText,
  /** What the offer does besides its words, with one tap (below); absent, words only. */
  action: saveOfferAction.optional(),
  /**
   * The reasons for leaving the cancel's confirm lists, by key (`too_expensive`), each in words
   * per language; the subscriber may pick one, or none. Absent, none is asked.
   */
  reasons: atMostEntries(
    z.record(z.string().regex(REASON_KEY), offerText, {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `"${String(issue.input)}" must be a reason key such as "too_expensive" (lower case, digits, _)`
          : undefined,
    }),
    SAVE_OFFER_REASONS_MAX,
    'reasons',
  ).optional(),
  /**
   * Alternatives a save offer test shows (shared/config/experiments.ts `change.saveOffer`), each
   * laid over the offer language by language: its title and text where written, the offer's
   * where not.
   */
  variants: atMostEntries(
    z.record(
      contentVariantName,
      z.strictObject({
        title: offerText.optional(),
        text: offerText.optional(),
        /** Its own action instead of the offer's; null: words only, whatever the offer does. */
        action: saveOfferAction.nullable().optional(),
      }),
    ),
    10,
    'variants',
  ).optional(),
});

/** Why a record's key names no composed screen (or question): composedIdProblem's words. */
function composedIdError(issue: { code?: string; input?: unknown }): string | undefined {
  if (issue.code !== 'invalid_key') return undefined;
  const id = String(issue.input);
  return `"${id}" ${composedIdProblem(id)}`;
}

/** Question screens one content document may declare: a few quizzes' worth. */
const QUESTIONS_MAX = 60;

const contentSchema = z.strictObject({
  screens: z
    .partialRecord(screenId, screenContent, {
      error: (issue) =>
        issue.code === 'invalid_key' ? `unknown screen id "${String(issue.input)}"` : undefined,
    })
    .default({}),
  /** New screens composed from sections, by id (`spring_landing`); absent, none. */
  composed: z
    .record(composedId, composedScreen, { error: composedIdError })
    .refine((c) => Object.keys(c).length <= 50, 'must declare at most 50 screens')
    .optional(),
  /**
   * A quiz's question screens, by id (`q_who`): each at its own path, named in flows as a
   * composed screen is (the same names, so no id is both; worker/quiz/check.ts), drawn as
   * shared/screens.ts QUESTION_SCREEN. Absent, none.
   */
  questions: z
    .record(composedId, question, { error: composedIdError })
    .refine(
      (c) => Object.keys(c).length <= QUESTIONS_MAX,
      `must declare at most ${QUESTIONS_MAX} questions`,
    )
    .optional(),
  /** Per theme, the brand its pages wear (shared/brand.ts); absent, the brands in code. */
  brands: brandsSchema.optional(),
  /** The subscriber's page's save offer before a cancel; absent, none. */
  saveOffer: saveOffer.optional(),
});

export type ContentDocument = z.output<typeof contentSchema>;
export type ScreenContent = z.output<typeof screenContent>;
export type ComposedScreenContent = z.output<typeof composedScreen>;
/** What a screen shows once a content variant is laid over it: its sections, copy and picture. */
export type ScreenBody = z.output<typeof screenVariant>;

/** No content: every screen as code composes it. */
export const EMPTY_CONTENT: ContentDocument = { screens: {} };

export function parseContent(raw: unknown): ParseResult<ContentDocument> {
  return parseJsonDocument(contentSchema, raw, CONFIG_MAX_BYTES);
}
