import * as z from 'zod';
import { dayAfter } from '../calendar-day';
import { slug } from '../config/fields';
import {
  CLICK_ID_VALUES,
  COUNTRY_CODES,
  IN_APP_VALUES,
  PLATFORMS,
  ROUTE_LANGUAGES,
} from '../routing';
import { THEMES } from '../theme';
import { calendarDay } from './ad-costs';
import { type AcknowledgeAlertRequest, ALERT_KEY_MAX } from './alerts';
import type { PublishRequest, RollbackRequest } from './config';
import type { SaveOfferPreviewRequest } from './content';
import type { CopyPublishRequest, CopyRollbackRequest } from './copy';
import type {
  ApproveRequest,
  DraftSaveRequest,
  RestoreRequest,
  ReviewRequest,
  TakeChangeSetRequest,
} from './draft';
import { FUNNEL_REPORT_MAX_DAYS } from './funnel';
import { RAMP_PERSON_MOVES, RAMP_REASON_MAX, type RampMoveRequest } from './ramp-status';
import type { RouteTestRequest, VisitorGetsRequest } from './routes';
import {
  TOKEN_NAME,
  TOKEN_SCOPES,
  type TokenCreateRequest,
  type TokenRevokeRequest,
  tokenAuthor,
} from './tokens';

/**
 * The console API's request bodies as schemas, each tied by its type to the interface the
 * console and the worker use (`satisfies`), so the two cannot drift apart: what the worker's
 * OpenAPI document says of each call (scripts/console-openapi.ts) and what the MCP server's tools
 * take (scripts/mcp/). The worker parses the bodies of the calls whose schemas hold all it checks
 * with these very schemas (the tokens, an alert's acknowledgement, a ramp's move, the route test,
 * what a visitor gets, a draft's save, review, approval, restore and change-set take, the config's
 * and the copy's check, publish and rollback); the content's previews it still checks field by
 * field, and these describe what it takes. A config document's sections are
 * objects here: their rules are the worker's (shared/config/), answered as invalid_config with
 * each field's path, and a second copy here would drift.
 */

const section = (what: string) => z.record(z.string(), z.unknown()).describe(what);

const configDocument = z
  .strictObject({
    split: section('variants and their weights'),
    flows: section('each flow: the screens a visitor walks'),
    routing: section('the routes: which visitors get which flow'),
    experiments: section('the experiments and their variants'),
    content: section('what the screens show: sections and copy'),
  })
  .describe(
    'The whole config document, every section: take it from the draft (draft.document) or, with no draft, from the state (live), and change only what the edit needs.',
  );

/** A document as a request's types read it: the schema's sections are the worker's to check. */
type Loose<T, Keys extends keyof T> = Omit<T, Keys> & {
  [Key in Keys]: undefined extends T[Key] ? unknown : NonNullable<unknown>;
};

const base = z
  .number()
  .int()
  .positive()
  .nullable()
  .describe(
    'The published version the edit starts from: draft.base, or the state’s head.seq (null when nothing was published).',
  );

const revision = z
  .number()
  .int()
  .min(0)
  .describe('The draft revision this starts from: draft.revision, 0 when no draft was saved yet');

/** The worker trims a note and keeps its first 500 characters (worker/console/publish-request.ts). */
const kept = '(trimmed; the first 500 characters kept)';

const note = z.string().optional().describe(`Why, for the history ${kept}`);

const breakGlass = z
  .boolean()
  .optional()
  .describe('Publish without the approval PUBLISH_APPROVAL requires; the team is alerted');

const seq = z.number().int().positive().describe('A published version’s seq');

/** A pasted ad link: long tracking parameters, but not a page of text. */
const MAX_LINK_LENGTH = 4096;

/** More arms than a config's layers cannot all be shown. */
const MAX_ARMS = 8;

/** The pauses a draft remembers: a variant key to its weight, a few dozen at most. */
const MAX_PAUSED = 100;

/** An http or https link as a marketer pastes it, or null for anything else. */
export function linkUrlOf(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** An ad link as a marketer pastes it. */
const pastedLink = z
  .string()
  .max(MAX_LINK_LENGTH)
  .refine((text) => linkUrlOf(text) !== null, 'must be an http or https link');

/** What a request describing a visitor says of them: the route test's and "what they get"'s. */
const described = {
  country: z
    .string()
    .refine((code) => COUNTRY_CODES.includes(code), 'must be an ISO country code')
    .nullable()
    .describe('ISO country code, e.g. US; null: unknown'),
  platform: z.enum(PLATFORMS),
  language: z.enum(ROUTE_LANGUAGES).optional().describe('Page language; absent: en'),
  returning: z.boolean().optional().describe('A visitor who came before'),
  at: z
    .string()
    .max(40)
    .refine((text) => !Number.isNaN(Date.parse(text)), 'is not a date')
    .optional()
    .describe('An ISO instant to test at; absent: now'),
};

/** The ad app whose browser opens the link. */
const inApp = z.enum(IN_APP_VALUES).describe('The ad app whose browser opens the link, or none');

export const publishRequest = z.object({
  base,
  document: configDocument,
  note,
  draft: z.number().int().positive().optional().describe('The shared draft’s revision this is'),
  breakGlass,
}) satisfies z.ZodType<Loose<PublishRequest, 'document'>>;

/** An earlier version published again: the config's and the copy's alike. */
const rollbackFields = { base, seq, note, breakGlass };

export const rollbackRequest = z.object({
  ...rollbackFields,
  draft: z.number().int().positive().optional(),
}) satisfies z.ZodType<RollbackRequest>;

export const routeTestRequest = z.strictObject({
  link: pastedLink.describe('The ad link as pasted, e.g. https://…/?utm_source=tiktok'),
  ...described,
  app: inApp,
  clickId: z
    .enum(CLICK_ID_VALUES)
    .optional()
    .describe('The click id’s network over the link’s own, or none'),
  document: configDocument.optional().describe('The draft to test; absent: what is live'),
}) satisfies z.ZodType<Loose<RouteTestRequest, 'document'>>;

export const visitorGetsRequest = z.strictObject({
  route: z.string().max(64).optional().describe("A route id; absent: the router's choice"),
  link: pastedLink.optional().describe('The ad link they open; absent: the front page'),
  ...described,
  app: inApp.optional(),
  visitorId: z
    .uuid()
    .optional()
    .describe("A visitor id whose draws to follow; absent: each experiment's control"),
  arms: z
    .record(z.string().max(64), z.string().max(64))
    .refine((arms) => Object.keys(arms).length <= MAX_ARMS, `at most ${MAX_ARMS} arms`)
    .optional()
    .describe('Arms to show: experiment id → variant'),
  document: configDocument.optional().describe('The draft; absent: the live config'),
}) satisfies z.ZodType<VisitorGetsRequest>;

export const draftSaveRequest = z.object({
  revision,
  base,
  document: configDocument,
  pausedWeights: z
    .record(z.string().max(64), z.number())
    .refine((paused) => Object.keys(paused).length <= MAX_PAUSED, `at most ${MAX_PAUSED} paused`)
    .default({})
    .describe('Weights of the variants paused in this draft, as the draft has them ({} for none)'),
  keepMine: z
    .boolean()
    .optional()
    .describe(
      'After a draft_conflict: merge, keeping your values where both changed the same place',
    ),
}) satisfies z.ZodType<Loose<DraftSaveRequest, 'document'>>;

export const reviewRequest = z.object({
  revision: z.number().int().positive().describe('The revision the save answered'),
  note: z.string().optional().describe(`What the reviewer should look at, and why ${kept}`),
}) satisfies z.ZodType<ReviewRequest>;

export const approveRequest = z.object({
  revision: z.number().int().positive(),
}) satisfies z.ZodType<ApproveRequest>;

export const restoreRequest = z.object({ revision, seq }) satisfies z.ZodType<RestoreRequest>;

export const takeChangeSetRequest = z.object({
  revision,
  owner: z.string().startsWith(tokenAuthor('')).describe('The change set’s owner: token:<name>'),
}) satisfies z.ZodType<TakeChangeSetRequest>;

export const rampMoveRequest = z.object({
  move: z.enum(RAMP_PERSON_MOVES),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(RAMP_REASON_MAX)
    .describe('Why, for the history and the alert'),
  seen: z.object({
    status: z.enum(['running', 'held', 'rolled_back', 'done']),
    since: z.string().describe('The ramp’s since, as its status answered'),
  }),
  breakGlass,
}) satisfies z.ZodType<RampMoveRequest>;

export const acknowledgeAlertRequest = z.object({
  key: z.string().min(1).max(ALERT_KEY_MAX).describe('The alert’s key, as the inbox lists it'),
}) satisfies z.ZodType<AcknowledgeAlertRequest>;

const copyDocument = z
  .record(z.string(), z.record(z.string(), z.string()))
  .describe('Language → copy key → text: every override in effect after the publish');

export const copyPublishRequest = z.object({
  base,
  copy: copyDocument,
  note,
  breakGlass,
}) satisfies z.ZodType<Loose<CopyPublishRequest, 'copy'>>;

export const copyRollbackRequest = z.object(
  rollbackFields,
) satisfies z.ZodType<CopyRollbackRequest>;

export const copyPreviewRequest = z.strictObject({ copy: copyDocument });

const contentSection = configDocument.shape.content;

/** The languages the pages ship, as a preview draws them. */
const shippedLanguage = z.enum(ROUTE_LANGUAGES).describe('A language the pages ship, e.g. de');

const theme = z.enum(THEMES).describe('The brand whose look the preview takes');

export const contentPreviewRequest = z.strictObject({
  screen: z
    .string()
    .max(100)
    .describe(
      'The screen to draw, e.g. one_pager: one made of sections, or a composed one the draft content declares',
    ),
  language: shippedLanguage,
  theme,
  content: contentSection,
  route: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe('A route of the draft’s routing, drawn as its visitors see the screen'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a country code of two capitals')
    .nullable()
    .optional()
    .describe('The visitor’s country the preview is drawn for, e.g. DE'),
});

export const contentLanguagesRequest = z.strictObject({ content: contentSection });

export const saveOfferPreviewRequest = z.strictObject({
  language: shippedLanguage,
  theme,
  content: contentSection,
  variant: z
    .string()
    .max(64)
    .nullable()
    .optional()
    .describe('A save offer test’s variant of the draft content; absent or null: the offer'),
}) satisfies z.ZodType<Loose<SaveOfferPreviewRequest, 'content'>>;

export const tokenCreateRequest = z.object({
  name: z.string().regex(TOKEN_NAME).describe('Lower-case letters, digits and dashes'),
  scopes: z.array(z.enum(TOKEN_SCOPES)).min(1),
}) satisfies z.ZodType<TokenCreateRequest>;

export const tokenRevokeRequest = z.object({
  name: z.string().regex(TOKEN_NAME),
}) satisfies z.ZodType<TokenRevokeRequest>;

/** A call that takes no fields: an empty JSON object, as every console write is JSON. */
export const emptyRequest = z.object({});

/**
 * GET CONSOLE_FUNNEL_PATH's query (shared/console-api/funnel.ts): both days included, UTC; a
 * route's days only when `route` is named.
 */
export const funnelReportQuery = z
  .strictObject({
    from: calendarDay,
    to: calendarDay,
    route: slug.optional(),
    format: z.enum(['json', 'csv']).default('json'),
    table: z.enum(['campaigns', 'days']).default('campaigns'),
  })
  .refine(({ from, to }) => from <= to, { message: 'from is after to', path: ['from'] })
  .refine(({ from, to }) => dayAfter(from, FUNNEL_REPORT_MAX_DAYS - 1) >= to, {
    message: `at most ${FUNNEL_REPORT_MAX_DAYS} days`,
    path: ['to'],
  });
