import type { ContentDocument, SaveOfferAction } from '../../shared/config/content';
import { REASON_KEY, SAVE_OFFER_REASONS_MAX } from '../../shared/save-offer-reasons';

/**
 * The save offer in the content document (shared/config/content.ts `saveOffer`), edited a
 * language's title or text at a time, its action and its reasons for leaving, and its variants,
 * which a save offer test shows one per arm (docs/marketers.md, "The save offer before a
 * cancel"; docs/experiments.md, "Testing the save offer"). Pure, as ./content-edits.ts is.
 */

/** The offer's two texts: its title, and the text under it. */
export type OfferField = 'title' | 'text';

/** What the editor writes: the offer as written (null), or one of its variants by name. */
export type OfferVersion = string | null;

type SaveOffer = NonNullable<ContentDocument['saveOffer']>;

/** `texts` with `language` set as typed; an emptied text leaves the language. */
function withLanguage(texts: Record<string, string>, language: string, text: string) {
  const { [language]: _old, ...others } = texts;
  return text.trim() === '' ? others : { ...others, [language]: text };
}

/**
 * `content` with `offer`, or without any when it has no text in any language and nothing else:
 * no action, no reasons, no variants.
 */
function withOffer(content: ContentDocument, offer: SaveOffer): ContentDocument {
  const { saveOffer: _offer, ...rest } = content;
  const { title, text, ...more } = offer;
  // Its variants (a save offer test's, docs/experiments.md) keep it: emptied, they stay.
  const empty =
    Object.keys(title).length === 0 &&
    Object.keys(text).length === 0 &&
    Object.values(more).every((value) => value === undefined);
  return empty ? rest : { ...rest, saveOffer: offer };
}

/** The offer as it stands, or one with no words yet for an edit to start from. */
const offerOf = (content: ContentDocument): SaveOffer =>
  content.saveOffer ?? { title: {}, text: {} };

/**
 * The document with `language`'s title or text set as typed, for the check to refuse at its
 * path (`content.saveOffer.text.de`) rather than the form to cut it. An emptied text leaves the
 * language (in a variant: the variant then shows the offer's); an offer with no text left in any
 * language, and no variants, leaves the document.
 */
export function withOfferText(
  content: ContentDocument,
  field: OfferField,
  language: string,
  text: string,
  version: OfferVersion = null,
): ContentDocument {
  const offer = offerOf(content);
  if (version === null) {
    return withOffer(content, { ...offer, [field]: withLanguage(offer[field], language, text) });
  }
  const { [field]: texts = {}, ...own } = offer.variants?.[version] ?? {};
  const next = withLanguage(texts, language, text);
  const variant = Object.keys(next).length > 0 ? { ...own, [field]: next } : own;
  return withOffer(content, { ...offer, variants: { ...offer.variants, [version]: variant } });
}

/** The offer's variants by name, in the order the document keeps them. */
export function offerVariantNames(content: ContentDocument): string[] {
  return Object.keys(content.saveOffer?.variants ?? {});
}

/** `content` with a new variant of the offer that writes nothing yet: it shows the offer. */
export function withNewOfferVariant(content: ContentDocument, name: string): ContentDocument {
  const offer = offerOf(content);
  return { ...content, saveOffer: { ...offer, variants: { ...offer.variants, [name]: {} } } };
}

/** `content` without the offer's variant `name` (an experiment naming it is then refused). */
export function withoutOfferVariant(content: ContentDocument, name: string): ContentDocument {
  const offer = content.saveOffer;
  if (!offer) return content;
  const { [name]: _gone, ...variants } = offer.variants ?? {};
  const { variants: _all, ...rest } = offer;
  return withOffer(content, Object.keys(variants).length > 0 ? { ...rest, variants } : rest);
}

/** The languages whose subscribers see the offer: those it has both a title and a text in. */
export function offeredLanguages(content: ContentDocument): string[] {
  const offer = content.saveOffer;
  if (!offer) return [];
  return Object.keys(offer.title).filter((language) => offer.text[language]);
}

/**
 * What a version does with one tap besides its words: the offer's action, null for words only;
 * a variant's own, null for words only whatever the offer does, undefined where it does what the
 * offer does.
 */
export function offerActionOf(
  content: ContentDocument,
  version: OfferVersion,
): SaveOfferAction | null | undefined {
  const offer = content.saveOffer;
  if (version === null) return offer?.action ?? null;
  return offer?.variants?.[version]?.action;
}

/**
 * `content` with a version's action. The offer says words only by having none (null leaves the
 * key out); a variant keeps null, which overrides the offer's action, and leaves the key out for
 * undefined, to do whatever the offer does.
 */
export function withOfferAction(
  content: ContentDocument,
  action: SaveOfferAction | null | undefined,
  version: OfferVersion = null,
): ContentDocument {
  const offer = offerOf(content);
  if (version === null) {
    const { action: _old, ...rest } = offer;
    return withOffer(content, action ? { ...rest, action } : rest);
  }
  const { action: _old, ...own } = offer.variants?.[version] ?? {};
  const variant = action === undefined ? own : { ...own, action };
  return withOffer(content, { ...offer, variants: { ...offer.variants, [version]: variant } });
}

/** The offer's reasons for leaving by key, in the order the confirm lists them. */
export function offerReasonKeys(content: ContentDocument): string[] {
  return Object.keys(content.saveOffer?.reasons ?? {});
}

/** Why `key` cannot be a new reason beside `taken`: its shape, taken already, or one too many. */
export function newReasonProblem(taken: readonly string[], key: string): string | null {
  if (taken.length >= SAVE_OFFER_REASONS_MAX) {
    return `At most ${SAVE_OFFER_REASONS_MAX} reasons: remove one to add another.`;
  }
  if (!REASON_KEY.test(key)) {
    return 'Use lower-case letters, digits and _, starting with a letter (at most 40).';
  }
  if (taken.includes(key)) return `"${key}" is already a reason.`;
  return null;
}

/** `content` with a new reason, last in the list, in no language yet. */
export function withNewReason(content: ContentDocument, key: string): ContentDocument {
  const offer = offerOf(content);
  return withOffer(content, { ...offer, reasons: { ...offer.reasons, [key]: {} } });
}

/** `content` with reason `key`'s words in `language` set as typed; emptied, the language leaves. */
export function withReasonText(
  content: ContentDocument,
  key: string,
  language: string,
  text: string,
): ContentDocument {
  const offer = offerOf(content);
  const reasons = offer.reasons ?? {};
  const texts = withLanguage(reasons[key] ?? {}, language, text);
  return withOffer(content, { ...offer, reasons: { ...reasons, [key]: texts } });
}

/** `content` without reason `key`; the last one gone, the offer asks no reason. */
export function withoutReason(content: ContentDocument, key: string): ContentDocument {
  const offer = content.saveOffer;
  if (!offer) return content;
  const { [key]: _gone, ...reasons } = offer.reasons ?? {};
  const { reasons: _all, ...rest } = offer;
  return withOffer(content, Object.keys(reasons).length > 0 ? { ...rest, reasons } : rest);
}
