import type { ContentDocument } from '../../shared/config/content';

/**
 * The save offer in the content document (shared/config/content.ts `saveOffer`), edited a
 * language's title or text at a time (docs/marketers.md, "The save offer before a cancel"). Pure,
 * as ./content-edits.ts is.
 */

/** The offer's two texts: its title, and the text under it. */
export type OfferField = 'title' | 'text';

/**
 * The document with `language`'s title or text set as typed, for the check to refuse at its
 * path (`content.saveOffer.text.de`) rather than the form to cut it. An emptied text leaves the
 * language; an offer with no text left in any language, and no variants, leaves the document.
 */
export function withOfferText(
  content: ContentDocument,
  field: OfferField,
  language: string,
  text: string,
): ContentDocument {
  const offer = content.saveOffer ?? { title: {}, text: {} };
  const { [language]: _old, ...others } = offer[field];
  const texts = text.trim() === '' ? others : { ...others, [language]: text };
  const next = { ...offer, [field]: texts };
  const { saveOffer: _offer, ...rest } = content;
  // Its variants (a save offer test's, docs/experiments.md) keep it: emptied, they stay.
  const empty =
    Object.keys(next.title).length === 0 &&
    Object.keys(next.text).length === 0 &&
    next.variants === undefined;
  return empty ? rest : { ...rest, saveOffer: next };
}

/** The languages whose subscribers see the offer: those it has both a title and a text in. */
export function offeredLanguages(content: ContentDocument): string[] {
  const offer = content.saveOffer;
  if (!offer) return [];
  return Object.keys(offer.title).filter((language) => offer.text[language]);
}
