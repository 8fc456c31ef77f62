/**
 * The console's picture library (worker/pictures/library-routes.ts): `GET` lists the uploaded
 * pictures, newest first; `POST` with the file's bytes as the body (`Content-Type:
 * application/octet-stream`) uploads one; `DELETE /<id>` with the console's draft content as
 * JSON (`{ draft }`) deletes one that neither the live content nor the draft shows. A content document names a picture by its `id`, with
 * its `width` and `height` and an alt text per language (shared/config/content.ts).
 */
export const CONSOLE_PICTURES_PATH = '/console/pictures';

/** The upload's only content type: one no cross-site form can send without asking first. */
export const PICTURE_UPLOAD_TYPE = 'application/octet-stream';

export interface PictureRecord {
  /** The SHA-256 of the file, in hex: the same file uploaded twice is one picture. */
  id: string;
  /** What the bytes are, read from them (never the name or the Content-Type). */
  type: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';
  width: number;
  height: number;
  /** The original's size in bytes. */
  bytes: number;
  /** Who uploaded it first (the console author) and when (ISO 8601). */
  uploadedBy: string;
  uploadedAt: string;
  /** A preview for the library: the smallest JPEG size. */
  thumbnail: string;
}

export interface PictureLibraryAnswer {
  ok: true;
  pictures: PictureRecord[];
}

export interface PictureUploadAnswer {
  ok: true;
  picture: PictureRecord;
  /** False when the same file was already in the library. */
  created: boolean;
}

/**
 * Why an upload is refused (JSON `{ ok: false, error, message }`), the message saying what to do:
 * - picture_type (415): not a JPEG, PNG, WebP, AVIF or GIF, by its bytes;
 * - picture_svg (415): an SVG, which can carry script;
 * - picture_malformed (422): its header cannot be read (truncated or damaged);
 * - picture_too_large (413): over PICTURE_MAX_BYTES (shared/pictures.ts);
 * - picture_dimensions (422): a side under PICTURE_MIN_SIDE or over PICTURE_MAX_SIDE pixels;
 * - picture_in_use (409, a delete): the live content or the draft shows it, `uses` says where;
 * - picture_not_found (404, a delete): no picture has that id;
 * - rate_limited (429), with Retry-After;
 * - pictures_not_configured (503): no PICTURES bucket bound.
 */
export type PictureRefusal =
  | 'picture_type'
  | 'picture_svg'
  | 'picture_malformed'
  | 'picture_too_large'
  | 'picture_dimensions'
  | 'picture_in_use'
  | 'picture_not_found'
  | 'rate_limited'
  | 'pictures_not_configured';

/** A place a content document shows a picture: the live content's or the sent draft's. */
export interface PictureUse {
  in: 'live' | 'draft';
  /** The path in the content document, e.g. `screens.one_pager.variants.b.picture`. */
  path: string;
}

export interface PictureDeleteAnswer {
  ok: true;
  deleted: string;
}
