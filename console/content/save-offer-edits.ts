import type { ContentDocument } from '../../shared/config/content';

/**
 * The save offer in the content document (shared/config/content.ts `saveOffer`), edited a
 * language's title or text at a time, and its variants, which a save offer test shows one per
 * arm (docs/marketers.md, "The save offer before a cancel"; docs/experiments.md, "Testing the
 * save offer"). Pure, as ./content-edits.ts is.
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

/** `content` with `offer`, or without any when it has no text in any language and no variants. */
function withOffer(content: ContentDocument, offer: SaveOffer): ContentDocument {
  const { saveOffer: _offer, ...rest } = content;
  // Its variants (a save offer test's, docs/experiments.md) keep it: emptied, they stay.
  const empty =
    Object.keys(offer.title).length === 0 &&
    Object.keys(offer.text).length === 0 &&
    offer.variants === undefined;
  return empty ? rest : { ...rest, saveOffer: offer };
}

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
  const offer = content.saveOffer ?? { title: {}, text: {} };
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
  const offer = content.saveOffer ?? { title: {}, text: {} };
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
