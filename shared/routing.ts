import { getCountries } from 'libphonenumber-js/min';
import { IN_APP_NAMES, type InAppApp } from './in-app-browser';
import type { AnswerName } from './quiz/answers';

/**
 * What a route's audience may read about a visitor, and how (worker/routing/, the console's
 * traffic map). Values come from fixed lists, so a rule can never name what a visitor cannot
 * have; the campaign texts a marketer types into links are the one free text, matched by
 * equals, in, contains or starts with, ignoring case. No regular expressions. The routing
 * document that names them is shared/config/routing.ts.
 */

/** Where a visit came from (worker/routing/first-touch.ts sourceOf). */
export const SOURCES = [
  'meta',
  'tiktok',
  'google',
  'organic',
  'referral',
  'other',
  'direct',
] as const;
export type Source = (typeof SOURCES)[number];

/** A UTM value a marketer could have written: printable, at most this long. */
export const MAX_UTM_LENGTH = 100;
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;

/**
 * A link's UTM value as a visit keeps it (worker/routing/first-touch.ts), trimmed; null when it is
 * empty, longer than MAX_UTM_LENGTH or not printable. Here, not in the worker, so what the ad
 * costs name a campaign (console-api/ad-costs.ts) is what a visit's first touch names it.
 */
export function utmValue(value: string | null): string | null {
  const trimmed = value?.trim();
  if (!trimmed || trimmed.length > MAX_UTM_LENGTH || !PRINTABLE.test(trimmed)) return null;
  return trimmed;
}

/**
 * The ad network whose click id the visit's first link carried (worker/routing/first-touch.ts
 * clickIdOf: `fbclid` meta, `ttclid` tiktok, `gclid`/`gbraid`/`wbraid` google), or 'none'.
 * Unverified, like every link parameter, but a bare `?utm_source=tiktok` has none.
 */
export const CLICK_ID_VALUES = ['meta', 'tiktok', 'google', 'none'] as const;
export type ClickIdNetwork = Exclude<(typeof CLICK_ID_VALUES)[number], 'none'>;

/** The click id parameters of each network, in the order clickIdOf reads them. */
export const CLICK_ID_PARAMS = {
  meta: ['fbclid'],
  tiktok: ['ttclid'],
  google: ['gclid', 'gbraid', 'wbraid'],
} as const satisfies Readonly<Record<ClickIdNetwork, readonly string[]>>;

export const PLATFORMS = ['ios', 'android', 'desktop', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const BROWSERS = [
  'safari',
  'chrome',
  'firefox',
  'edge',
  'samsung',
  'opera',
  'in_app',
  'other',
] as const;
export type Browser = (typeof BROWSERS)[number];

/** The ad app whose own browser the page opened in, or 'none'. */
export const IN_APP_VALUES = ['none', ...(Object.keys(IN_APP_NAMES) as InAppApp[])] as const;

const VISITOR_KINDS = ['new', 'returning'] as const;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** Whole days since the visit began: 0 on its first day, up to the first touch's 30 days. */
const VISIT_DAYS = Array.from({ length: 31 }, (_, day) => day);

/** The page languages (worker/i18n.ts SUPPORTED_LANGUAGES, which a test holds to this list). */
export const ROUTE_LANGUAGES = ['en', 'es', 'de', 'fr', 'pt', 'ru', 'ar'] as const;

/** ISO 3166-1 alpha-2 codes, as libphonenumber knows the world's regions. */
export const COUNTRY_CODES: readonly string[] = getCountries();

/** An attribute a rule reads: from a fixed list, a number of a fixed list, or campaign text. */
export type AttributeKind = 'list' | 'number' | 'text';

export interface AttributeDefinition {
  kind: AttributeKind;
  /** What the console calls it. */
  label: string;
  /** The values a rule may name (list and number kinds). */
  values?: readonly (string | number)[];
  /** Taken on the visit's first page (the gf_touch cookie) rather than on each request. */
  firstTouch?: boolean;
}

const text = (label: string): AttributeDefinition => ({ kind: 'text', label, firstTouch: true });

export const ROUTE_ATTRIBUTES = {
  source: { kind: 'list', label: 'Source', values: SOURCES, firstTouch: true },
  click_id: { kind: 'list', label: 'Ad click id', values: CLICK_ID_VALUES, firstTouch: true },
  utm_source: text('utm_source'),
  utm_medium: text('utm_medium'),
  utm_campaign: text('utm_campaign'),
  utm_content: text('utm_content'),
  utm_term: text('utm_term'),
  entry: text('Entry link (?r=)'),
  country: { kind: 'list', label: 'Country', values: COUNTRY_CODES, firstTouch: true },
  visit_days: {
    kind: 'number',
    label: 'Days since the visit began',
    values: VISIT_DAYS,
    firstTouch: true,
  },
  language: { kind: 'list', label: 'Language', values: ROUTE_LANGUAGES },
  platform: { kind: 'list', label: 'Platform', values: PLATFORMS },
  browser: { kind: 'list', label: 'Browser', values: BROWSERS },
  in_app: { kind: 'list', label: 'In-app browser', values: IN_APP_VALUES },
  visitor: { kind: 'list', label: 'New or returning', values: VISITOR_KINDS },
  hour: { kind: 'number', label: 'Hour (visitor’s time)', values: HOURS },
  weekday: { kind: 'list', label: 'Weekday (visitor’s time)', values: WEEKDAYS },
} as const satisfies Record<string, AttributeDefinition>;

export type RouteAttribute = keyof typeof ROUTE_ATTRIBUTES;
export const ROUTE_ATTRIBUTE_NAMES = Object.keys(ROUTE_ATTRIBUTES) as RouteAttribute[];

/**
 * What an experiment's own audience may read besides a route's attributes: the choice the
 * visitor gave to a quiz question, by its key (`answer:who`, shared/quiz/answers.ts answerName),
 * read on each page from the visit's kept answers (worker/request/kept-answers.ts).
 */
export type AudienceAttribute = RouteAttribute | AnswerName;

/** How a condition compares: lists by membership, campaign texts also by part. */
export const OPERATORS_BY_KIND = {
  list: ['in', 'not_in'],
  number: ['in', 'not_in'],
  text: ['equals', 'in', 'not_in', 'contains', 'starts_with'],
} as const satisfies Record<AttributeKind, readonly string[]>;
export type RouteOperator = (typeof OPERATORS_BY_KIND)[AttributeKind][number];

/** The route every document ends with, taking whoever no other route took. */
export const DEFAULT_ROUTE_ID = 'default';
