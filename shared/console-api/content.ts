/**
 * What the console's content editor and the worker say to each other (`/console/api/content/*`):
 * the screens made of sections with the sections each may show, the copy their sections read,
 * and a preview of a draft content drawn by the screens' own route. The content itself is
 * published with the rest of the config (./config.ts, `ConfigDocument.content`). Plain types and
 * constants, as the rest of this folder.
 */

import type { ContentChoices, ContentDocument } from '../config/content';
import type { FieldError } from './errors';
import type { LanguageNote } from './languages';

/** Where the content editor's calls live. */
export const CONSOLE_CONTENT_PATH = '/console/api/content';

export const CONSOLE_CONTENT_API = {
  /** GET: the composed screens, their sections and the texts they read (ContentCatalogue). */
  catalogue: '/console/api/content/catalogue',
  /**
   * POST ContentPreviewRequest: one screen drawn from a draft content, by the funnel's own page
   * route, as a marketer's preview (nothing counted, no cookie kept) (ContentPreviewAnswer).
   */
  preview: '/console/api/content/preview',
  /** POST {content}: what other languages' visitors see of its English (ContentLanguagesAnswer). */
  languages: '/console/api/content/languages',
  /**
   * POST SaveOfferPreviewRequest: the subscriber's cancel confirm drawn with a draft's save offer,
   * by the subscriber's page's own code (SaveOfferPreviewAnswer).
   */
  saveOfferPreview: '/console/api/content/save-offer-preview',
} as const;

/** A kind of section a screen's slot may show, as the editor lists it. */
export interface SectionChoice {
  id: string;
  /** Whether every screen of the slot must show it; `requiredReason` says why. */
  required: boolean;
  requiredReason?: string;
  /** The longest text a marketer may give one of its keys. */
  maxChars: number;
  /** The copy keys it reads on this screen, each a key the bundled English has. */
  keys: string[];
}

/** A screen a marketer may arrange: its slot, its sections as code composes it, and its choices. */
export interface ComposedScreenChoice {
  id: string;
  slot: string;
  /** Its section ids in code's order (all shown). */
  composition: string[];
  /** Every section its slot may show, by id. */
  sections: Record<string, SectionChoice>;
}

/** GET catalogue. */
export interface ContentCatalogue {
  screens: ComposedScreenChoice[];
  /** The shipped languages, English first; `rtl` those written right to left. */
  languages: string[];
  rtl: string[];
  themes: string[];
  /** Language → key → the text a page shows without content: bundled, or the live copy's. */
  texts: Record<string, Record<string, string>>;
  /** Language → the keys whose text is the live copy override's rather than the bundled. */
  overridden: Record<string, string[]>;
}

export interface ContentPreviewRequest {
  screen: string;
  language: string;
  theme: string;
  content: ContentDocument;
  /** A route of the draft's routing, drawn as its visitors see the screen (its flow and plans). */
  route?: ContentPreviewRoute | null;
  /** A visitor's country (`DE`), as a preview's `?country=` names it. */
  country?: string | null;
}

/**
 * A route as a preview takes it: its id, flow and plan lists as the routing section has them,
 * and the content variant it shows of each screen (a content test shipped to it, an arm's).
 */
export interface ContentPreviewRoute {
  id: string;
  flow: string;
  plans: readonly string[] | null;
  upsellPlans?: readonly string[] | null;
  guidePlans?: readonly string[] | null;
  content?: ContentChoices;
}

/** 200 from preview: the page's HTML, and what the content check says of the screen's content. */
export interface ContentPreviewAnswer {
  ok: true;
  html: string;
  /** Problems a publish would refuse (`content.screens.one_pager.copy.de.…`); the page still draws. */
  issues: FieldError[];
}

/** The confirm before a cancel in a language and theme, with `content`'s save offer in it. */
export interface SaveOfferPreviewRequest {
  language: string;
  theme: string;
  content: ContentDocument;
  /**
   * One of the offer's variants (`content.saveOffer.variants`), laid over the offer as a save
   * offer test's arm shows it; absent or null, the offer as written. 400 invalid_config at
   * `variant` when the content does not define it.
   */
  variant?: string | null;
}

/** 200 from saveOfferPreview: the confirm's page; 400 invalid_config with the shape's refusals. */
export interface SaveOfferPreviewAnswer {
  ok: true;
  html: string;
  /** Whether the page shows an offer: a title and a text in its language. */
  offered: boolean;
}

/**
 * 200 from languages: what visitors in each other language see of the draft content's English
 * changes, every screen's and variant's, which a publish takes (their current text, outdated, or
 * no test of a variant). 400 invalid_config when the content's shape is refused.
 */
export interface ContentLanguagesAnswer {
  ok: true;
  languages: LanguageNote[];
}
