import { LANGUAGES } from '../../locales';
import { COMPOSED_SCREENS } from '../../screens/composed';
import {
  arrangedSections,
  aScreenOf,
  type ComposedDefinition,
} from '../../screens/kit/arrangement';
import { screenOfRef } from '../../shared/composed-screens';
import type {
  ContentDocument,
  ContentPicture,
  SaveOfferAction,
  ScreenBody,
  ScreenContent,
} from '../../shared/config/content';
import type { FlowsDocument } from '../../shared/config/flows';
import type { DocumentIssue } from '../../shared/config/parse-document';
import { screenBodyOf } from '../../shared/content-body';
import { PLURAL_SUFFIX } from '../../shared/copy-placeholders';
import { visitorTextProblems } from '../../shared/copy-rules';
import { PLAN_FAMILIES } from '../../shared/plans/catalogue';
import { isSellingScreen } from '../../shared/plans/screen-offers';
import { withoutAnswerPlaceholders } from '../../shared/quiz/answer-text';
import type { ScreenId } from '../../shared/screens';
import type { PictureSizes } from '../pictures/library';
import { isShippedLanguage, textProblems } from '../translations/check';

/**
 * The rules a content document is held to once its shape holds (shared/config/content.ts), each
 * refusal at its path (`content.screens.one_pager.sections.2.visible`): a screen takes content
 * only if it is made of sections; its sections are its slot's, each once, with the ones the
 * slot needs shown; each text overrides a key one of the sections it shows reads, in a shipped
 * language, with the key's placeholders kept, within its section's length, as text, never
 * markup. A text whose English changes need not be given in the other languages: what their
 * visitors then see is said by ./languages.ts, never refused. A picture is one of the library's, at its
 * size (checked where the library is at hand: `pictures`, the console's publish), described in
 * every shipped language; a shown `picture` section has one.
 */
export function contentIssues(content: ContentDocument, pictures?: PictureSizes): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const [screen, own] of Object.entries(content.screens)) {
    if (!own) continue;
    const at = `content.screens.${screen}`;
    const composed = COMPOSED_SCREENS[screen as ScreenId];
    if (!composed) {
      issues.push({
        path: at,
        message: 'is not made of sections: only a screen made of sections takes content',
      });
      continue;
    }
    issues.push(...screenContentIssues(at, screen, composed, own, pictures));
  }
  issues.push(...composedScreenIssues(content, pictures));
  issues.push(...saveOfferIssues(content));
  return issues;
}

/**
 * A save offer variant (docs/experiments.md, "Testing the save offer") words its title or its
 * text in some language, or does its own action: one that does neither shows the offer as
 * written, so a test of it would compare the offer with itself. Refused here rather than by the
 * shape, so a variant just added in the console still previews (as the offer) until the
 * marketer writes it. And the offer's actions and reasons must be able to show (below).
 */
function saveOfferIssues(content: ContentDocument): DocumentIssue[] {
  const offer = content.saveOffer;
  if (!offer) return [];
  const issues: DocumentIssue[] = Object.entries(offer.variants ?? {})
    .filter(
      ([, { title, text, action }]) =>
        Object.keys({ ...title, ...text }).length === 0 && action === undefined,
    )
    .map(([name]) => ({
      path: `content.saveOffer.variants.${name}`,
      message:
        'must word its title or its text in at least one language, or do its own action: as it is, it shows the offer as written',
    }));
  const actions: [string, SaveOfferAction | null | undefined][] = [
    ['content.saveOffer.action', offer.action],
    ...Object.entries(offer.variants ?? {}).map(
      ([name, variant]): [string, SaveOfferAction | null | undefined] => [
        `content.saveOffer.variants.${name}.action`,
        variant.action,
      ],
    ),
  ];
  for (const [path, action] of actions) {
    if (action?.kind === 'switch' && PLAN_FAMILIES[action.family].billing.kind !== 'recurring') {
      issues.push({
        path: `${path}.family`,
        message: `"${action.family}" is a one-time payment: a switch moves to a cheaper plan that renews`,
      });
    }
  }
  return [...issues, ...reasonIssues(offer), ...offerTextIssues(offer)];
}

/**
 * The save offer's words (its title, text and reasons, and its variants'), held to the rules of
 * every text a visitor reads: the offer is about what the subscriber will pay, so no price may be
 * typed by hand there either (the action's terms come from the product API's own answer).
 */
function offerTextIssues(offer: NonNullable<ContentDocument['saveOffer']>): DocumentIssue[] {
  const at = 'content.saveOffer';
  const texts: [string, Record<string, string> | undefined][] = [
    [`${at}.title`, offer.title],
    [`${at}.text`, offer.text],
    ...Object.entries(offer.reasons ?? {}).map(([key, words]): [string, Record<string, string>] => [
      `${at}.reasons.${key}`,
      words,
    ]),
    ...Object.entries(offer.variants ?? {}).flatMap(
      ([name, variant]): [string, Record<string, string> | undefined][] => [
        [`${at}.variants.${name}.title`, variant.title],
        [`${at}.variants.${name}.text`, variant.text],
      ],
    ),
  ];
  return texts.flatMap(([path, byLanguage]) =>
    Object.entries(byLanguage ?? {}).flatMap(([language, text]) =>
      readTextIssues(`${path}.${language}`, text, true),
    ),
  );
}

/**
 * Each reason for leaving is written in every language the offer is: a list missing one in a
 * language is not shown in it at all (worker/subscriber-links/save-offer-action.ts reasonsIn).
 */
function reasonIssues(offer: NonNullable<ContentDocument['saveOffer']>): DocumentIssue[] {
  const languages = Object.keys(offer.title);
  return Object.entries(offer.reasons ?? {}).flatMap(([key, text]) => {
    const missing = languages.filter((language) => !text[language]);
    return missing.length === 0
      ? []
      : [
          {
            path: `content.saveOffer.reasons.${key}`,
            message: `must be written in ${missing.join(', ')} as the offer is: without it no reason is asked in that language`,
          },
        ];
  });
}

/** A screen's content, and each of its variants laid over it, against its composition. */
function screenContentIssues(
  at: string,
  screen: string,
  composed: ComposedDefinition,
  own: ScreenContent,
  pictures: PictureSizes | undefined,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const selling = isSellingScreen(screen);
  issues.push(...sectionIssues(at, composed, own));
  issues.push(...copyIssues(at, screen, composed, own, own));
  issues.push(...pictureIssues(at, own, own, pictures, selling));
  issues.push(...ratingIssues(at, composed, own, selling));
  for (const [name, variant] of Object.entries(own.variants ?? {})) {
    // A variant is held to the same rules as laid over the screen, each refusal at its own
    // fields: what it lists and the texts it gives.
    const laid = screenBodyOf(own, name);
    const path = `${at}.variants.${name}`;
    issues.push(...sectionIssues(path, composed, variant));
    issues.push(...copyIssues(path, screen, composed, variant, laid));
    issues.push(...pictureIssues(path, variant, laid, pictures, selling));
  }
  return issues;
}

/**
 * The screens a marketer composes (`content.composed.spring_landing`): each starts from a screen
 * in code made of sections, of the slot it says, and is held to that screen's rules (the
 * sections its slot needs, the copy its sections read) as its own content would be.
 */
function composedScreenIssues(
  content: ContentDocument,
  pictures: PictureSizes | undefined,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const [id, own] of Object.entries(content.composed ?? {})) {
    const at = `content.composed.${id}`;
    const composed = COMPOSED_SCREENS[own.from];
    if (!composed) {
      const made = Object.keys(COMPOSED_SCREENS).join(', ');
      issues.push({
        path: `${at}.from`,
        message: `"${own.from}" is not made of sections: start from one of ${made}`,
      });
      continue;
    }
    if (own.slot !== composed.slot) {
      issues.push({
        path: `${at}.slot`,
        message: `must be "${composed.slot}", the slot of ${own.from}, which it starts from`,
      });
    }
    issues.push(...screenContentIssues(at, own.from, composed, own, pictures));
  }
  return issues;
}

function sectionIssues(
  at: string,
  { slot, catalogue }: ComposedDefinition,
  own: ScreenBody,
): DocumentIssue[] {
  if (!own.sections) return [];
  const issues: DocumentIssue[] = [];
  const seen = new Set<string>();
  own.sections.forEach(({ id, visible }, index) => {
    const path = `${at}.sections.${index}`;
    const kind = Object.hasOwn(catalogue, id) ? catalogue[id] : undefined;
    if (!kind) {
      const kinds = Object.keys(catalogue).join(', ');
      issues.push({
        path: `${path}.id`,
        message: `is no section of ${aScreenOf(slot)} (${kinds})`,
      });
    } else if (seen.has(id)) {
      issues.push({ path: `${path}.id`, message: `lists "${id}" a second time` });
    } else if (kind.required && !visible) {
      issues.push({
        path: `${path}.visible`,
        message: `must be true: ${aScreenOf(slot)} needs its "${id}"`,
      });
    }
    seen.add(id);
  });
  for (const [id, kind] of Object.entries(catalogue)) {
    if (kind.required && !seen.has(id)) {
      issues.push({
        path: `${at}.sections`,
        message: `must include "${id}": ${aScreenOf(slot)} needs it`,
      });
    }
  }
  return issues;
}

/** Markup in a text: a tag, which the page would show as written, never as markup. */
const MARKUP = /<\/?[A-Za-z][^>]*>/;

/**
 * A text a visitor reads that is no copy key (an alt text, a rating's source, a save offer's
 * words): text, not markup, and held to the rules of every text a visitor reads
 * (shared/copy-rules.ts); `selling`: a price typed there could be read as one charged.
 */
function readTextIssues(path: string, text: string, selling: boolean): DocumentIssue[] {
  const problems = visitorTextProblems(text, { selling });
  if (MARKUP.test(text)) problems.push('must be text: markup is shown as written');
  return problems.map((message) => ({ path, message }));
}

/** The texts `own` gives, on the screen as `whole` arranges it (a variant: laid over the screen's content). */
function copyIssues(
  at: string,
  screen: string,
  { composition, catalogue }: ComposedDefinition,
  own: ScreenBody,
  whole: ScreenBody,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  // Every text of a screen that sells is held to its rules, whatever key it overrides.
  const sells = isSellingScreen(screen);
  const shown = arrangedSections(composition, catalogue, whole.sections ?? null);
  const limitOf = (key: string): number | null => {
    const base = key.replace(PLURAL_SUFFIX, '');
    const limits = shown
      .map(({ kind }) => catalogue[kind])
      .filter((kind) => kind?.copy.some((pattern) => readsKey(pattern, screen, base)))
      .map((kind) => kind?.maxChars ?? 0);
    return limits.length > 0 ? Math.min(...limits) : null;
  };
  for (const [language, texts] of Object.entries(own.copy ?? {})) {
    const path = `${at}.copy.${language}`;
    if (!isShippedLanguage(language)) {
      issues.push({ path, message: 'is not a shipped language' });
      continue;
    }
    for (const [key, text] of Object.entries(texts)) {
      // A visitor's answer (`{{answer.who}}`) is filled before i18next reads the text: its
      // placeholders are held to the questions apart (worker/quiz/check.ts).
      const problems = textProblems(language, key, withoutAnswerPlaceholders(text), {
        selling: sells,
      });
      const limit = limitOf(key);
      if (problems.length === 0 && limit === null) {
        problems.push('is read by no section this screen shows');
      }
      if (limit !== null && text.length > limit) {
        problems.push(`must be at most ${limit} characters in this section`);
      }
      if (MARKUP.test(text)) problems.push('must be text: markup is shown as written');
      for (const message of problems) issues.push({ path: `${path}.${key}`, message });
    }
  }
  return issues;
}

/** Whether a section's copy pattern (a key, or a group ending in '.') covers `key`. */
function readsKey(pattern: string, screen: string, key: string): boolean {
  const own = pattern.replace('{screen}', screen);
  return own.endsWith('.') ? key.startsWith(own) : key === own;
}

/**
 * The picture `own` names, and a `picture` section the screen as `whole` arranges it shows
 * without one: the section would be an empty box.
 */
function pictureIssues(
  at: string,
  own: ScreenBody,
  whole: ScreenBody,
  pictures: PictureSizes | undefined,
  selling: boolean,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const shownAt = (own.sections ?? []).findIndex(({ id, visible }) => id === 'picture' && visible);
  if (shownAt >= 0 && !whole.picture) {
    issues.push({
      path: `${at}.sections.${shownAt}.id`,
      message: `shows a picture, and ${at}.picture names none`,
    });
  }
  if (own.picture) {
    issues.push(...namedPictureIssues(`${at}.picture`, own.picture, pictures, selling));
  }
  return issues;
}

export function namedPictureIssues(
  at: string,
  picture: ContentPicture,
  pictures: PictureSizes | undefined,
  selling: boolean,
  /** False for a picture beside words that say it (a quiz choice's): its alt text is optional. */
  altRequired = true,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const known = pictures?.get(picture.id);
  if (pictures && !known) {
    issues.push({ path: `${at}.id`, message: 'names no picture in the library: upload it first' });
  }
  for (const side of ['width', 'height'] as const) {
    if (known && known[side] !== picture[side]) {
      issues.push({
        path: `${at}.${side}`,
        message: `must be ${known[side]}, the picture's ${side}`,
      });
    }
  }
  for (const [language, alt] of Object.entries(picture.alt)) {
    if (!isShippedLanguage(language)) {
      issues.push({ path: `${at}.alt.${language}`, message: 'is not a shipped language' });
    } else {
      issues.push(...readTextIssues(`${at}.alt.${language}`, alt, selling));
    }
  }
  for (const language of altRequired ? [...LANGUAGES].sort() : []) {
    if (!Object.hasOwn(picture.alt, language)) {
      issues.push({
        path: `${at}.alt.${language}`,
        message: 'must be given: a screen reader says what the picture shows in every language',
      });
    }
  }
  return issues;
}

/**
 * A rating shows only in a reviews section, and its source is text: on a screen whose slot has
 * no reviews the marketer would believe a figure is shown that no visitor sees.
 */
function ratingIssues(
  at: string,
  { slot, catalogue }: ComposedDefinition,
  own: ScreenContent,
  selling: boolean,
): DocumentIssue[] {
  if (!own.rating) return [];
  const issues: DocumentIssue[] = [];
  if (!Object.hasOwn(catalogue, 'reviews')) {
    issues.push({
      path: `${at}.rating`,
      message: `is shown only by a "reviews" section, which ${aScreenOf(slot)} has not`,
    });
  }
  if (own.rating.source !== undefined) {
    issues.push(...readTextIssues(`${at}.rating.source`, own.rating.source, selling));
  }
  return issues;
}

/**
 * Each screen a flow names that is neither in code nor composed in the content
 * (`content.composed`), at its path in the flows (`flows.flows.spring.0`): a visitor sent there
 * would find a 404. It also refuses taking out or renaming a composed screen a flow still walks.
 */
export function composedRefIssues(flows: FlowsDocument, content: ContentDocument): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const [name, screens] of Object.entries(flows.flows)) {
    screens.forEach((ref, index) => {
      if (screenOfRef(content, ref) !== null) return;
      issues.push({
        path: `flows.flows.${name}.${index}`,
        message: `names screen "${ref}", which is no screen in code and not composed in the content: compose it under content.composed, or choose another screen`,
      });
    });
  }
  return issues;
}
