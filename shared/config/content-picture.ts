import * as z from 'zod';
import { PICTURE_ID, PICTURE_MAX_SIDE, PICTURE_MIN_SIDE } from '../pictures';

/**
 * A picture of the library as the content document places one (a screen's `picture` section, a
 * question's choice): shared by the content's and the questions' schemas.
 */

/** A side of a picture, in pixels, as the library read it. */
const side = z
  .int('must be a whole number of pixels')
  .min(PICTURE_MIN_SIDE, `must be at least ${PICTURE_MIN_SIDE}`)
  .max(PICTURE_MAX_SIDE, `must be at most ${PICTURE_MAX_SIDE}`);

/** Alt text: what the picture shows, said to a screen reader; short, as a caption is. */
const ALT_MAX = 250;

/**
 * The picture a screen's `picture` section shows: a picture of the library (its id, the
 * SHA-256 the console's upload answered) with its size, so the page sets width and height
 * without reading the library, and what it shows in words per language. Alt text lives here,
 * not with the picture: it is copy, versioned, reviewed and tested with the rest, and says what
 * the picture means on this screen.
 */
export const contentPicture = z.strictObject({
  id: z.string().regex(PICTURE_ID, 'must be a picture id from the library (64 hex digits)'),
  width: side,
  height: side,
  alt: z.record(
    z.string().regex(/^[a-z]{2}$/, 'must be a language code'),
    z
      .string('must be a text')
      .trim()
      .min(1, 'must describe the picture')
      .max(ALT_MAX, `must be at most ${ALT_MAX} characters`),
  ),
});
export type ContentPicture = z.output<typeof contentPicture>;
