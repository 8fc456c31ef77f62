import type { ContentDocument, ContentPicture } from '../../shared/config/content';
import type { PictureRecord } from '../../shared/console-api/pictures';
import { withScreen } from './content-edits';

/**
 * The picture a screen's `picture` section shows (shared/config/content.ts): which of the
 * library's, with its sides as the library read them and a description per language. Pure, as
 * ./content-edits.ts is.
 */

type ScreenKey = keyof ContentDocument['screens'];

/** The screen's picture, if it names one. */
export function pictureOf(content: ContentDocument, screen: string): ContentPicture | undefined {
  return content.screens[screen as ScreenKey]?.picture;
}

/**
 * The screen shows `record`; the descriptions already given stay when the same picture is chosen
 * again, and start empty for another (they described the other picture).
 */
export function withPictureChosen(
  content: ContentDocument,
  screen: string,
  record: PictureRecord,
): ContentDocument {
  return withScreen(content, screen, (own) => {
    const alt = own.picture?.id === record.id ? own.picture.alt : {};
    return { ...own, picture: { id: record.id, width: record.width, height: record.height, alt } };
  });
}

/** The picture's description in `language`; an empty one is taken out. */
export function withPictureAlt(
  content: ContentDocument,
  screen: string,
  language: string,
  text: string,
): ContentDocument {
  const picture = pictureOf(content, screen);
  if (!picture) return content;
  const { [language]: _old, ...alt } = picture.alt;
  const next = text.trim() === '' ? alt : { ...alt, [language]: text };
  return withScreen(content, screen, (own) => ({ ...own, picture: { ...picture, alt: next } }));
}

/** A picture's name for a marketer: its size and upload day. */
export const pictureName = (record: Pick<PictureRecord, 'width' | 'height' | 'uploadedAt'>) =>
  `${record.width}×${record.height}, ${record.uploadedAt.slice(0, 10)}`;
