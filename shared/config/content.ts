import * as z from 'zod';
import { screenId } from './fields';
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

/** What a screen shows: its sections and its copy, each optional. */
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
};

/** A content variant's name, as an experiment's variant names it (`testimonials_first`). */
const contentVariantName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a name such as "testimonials_first"');

/**
 * The content variant each screen shows (`{ "one_pager": "testimonials_first" }`): what an
 * experiment's variant changes, or what a route shows once a content test shipped to it.
 */
export const contentChoices = z.partialRecord(screenId, contentVariantName, {
  error: (issue) =>
    issue.code === 'invalid_key' ? `unknown screen id "${String(issue.input)}"` : undefined,
});
export type ContentChoices = z.output<typeof contentChoices>;

const screenVariant = z.strictObject(screenBody);

const screenContent = z.strictObject({
  ...screenBody,
  /**
   * Alternatives an experiment tests against what the screen shows (shared/config/experiments.ts
   * `change.content`), each laid over it: its sections, if listed, instead of the screen's; its
   * texts over the screen's, language by language.
   */
  variants: z
    .record(contentVariantName, screenVariant)
    .refine((v) => Object.keys(v).length <= 10, 'must list at most 10 variants')
    .optional(),
});

const contentSchema = z.strictObject({
  screens: z
    .partialRecord(screenId, screenContent, {
      error: (issue) =>
        issue.code === 'invalid_key' ? `unknown screen id "${String(issue.input)}"` : undefined,
    })
    .default({}),
});

export type ContentDocument = z.output<typeof contentSchema>;
export type ScreenContent = z.output<typeof screenContent>;
/** What a screen shows once a content variant is laid over it: its sections and copy. */
export type ScreenBody = z.output<typeof screenVariant>;

/** No content: every screen as code composes it. */
export const EMPTY_CONTENT: ContentDocument = { screens: {} };

export function parseContent(raw: unknown): ParseResult<ContentDocument> {
  return parseJsonDocument(contentSchema, raw, CONFIG_MAX_BYTES);
}
