import type { PictureRecord } from '../../shared/console-api/pictures';
import { pictureUrl, pictureWidths } from '../../shared/pictures';
import type { PictureType } from './sniff';

/**
 * The pictures in R2 (the PICTURES bucket): each original once, under `originals/<sha-256>`,
 * with what the sniffer read from it and who first uploaded it as the object's custom metadata
 * (no second store to keep in step), and the sizes made from it under
 * `sizes/<sha-256>/<width>.<format>` (worker/pictures/serve-routes.ts).
 */

const ORIGINALS = 'originals/';

export const originalKey = (id: string) => `${ORIGINALS}${id}`;
const sizesOf = (id: string) => `sizes/${id}/`;
export const sizeKey = (id: string, width: number, format: string) =>
  `${sizesOf(id)}${width}.${format}`;

const TYPES: readonly PictureType[] = ['jpeg', 'png', 'webp', 'avif', 'gif'];

/** The record an original's metadata keeps, or null for an object this module did not write. */
function recordOf(object: R2Object): PictureRecord | null {
  const meta = object.customMetadata ?? {};
  const id = object.key.slice(ORIGINALS.length);
  const width = Number(meta.width);
  const height = Number(meta.height);
  const type = TYPES.find((known) => known === meta.type);
  if (!type || !Number.isInteger(width) || !Number.isInteger(height)) return null;
  return {
    id,
    type,
    width,
    height,
    bytes: object.size,
    uploadedBy: meta.uploadedBy ?? '',
    uploadedAt: meta.uploadedAt ?? object.uploaded.toISOString(),
    thumbnail: pictureUrl(id, pictureWidths(width)[0] ?? width, 'jpg'),
  };
}

export async function findPicture(bucket: R2Bucket, id: string): Promise<PictureRecord | null> {
  const object = await bucket.head(originalKey(id));
  return object ? recordOf(object) : null;
}

/** Each picture's size by id: what a content document's pictures are checked against. */
export type PictureSizes = ReadonlyMap<string, { width: number; height: number }>;

export async function pictureSizes(bucket: R2Bucket): Promise<PictureSizes> {
  const records = await listPictures(bucket);
  return new Map(records.map(({ id, width, height }) => [id, { width, height }]));
}

/** How many pages of 1000 the library lists at most: far more pictures than a funnel shows. */
const MAX_PAGES = 10;

/** Every picture, newest first. */
export async function listPictures(bucket: R2Bucket): Promise<PictureRecord[]> {
  const records: PictureRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await bucket.list({ prefix: ORIGINALS, include: ['customMetadata'], cursor });
    for (const object of listed.objects) {
      const record = recordOf(object);
      if (record) records.push(record);
    }
    if (!listed.truncated) break;
    cursor = listed.cursor;
  }
  return records.sort((a, b) => (a.uploadedAt < b.uploadedAt ? 1 : -1));
}

export interface NewPicture {
  id: string;
  bytes: Uint8Array;
  type: PictureType;
  width: number;
  height: number;
  author: string;
  at: Date;
}

/**
 * Keeps a picture once: the same bytes are the same id, so a second upload finds the first and
 * keeps its uploader and date.
 */
export async function storePicture(
  bucket: R2Bucket,
  picture: NewPicture,
): Promise<{ record: PictureRecord; created: boolean }> {
  const known = await findPicture(bucket, picture.id);
  if (known) return { record: known, created: false };
  const object = await bucket.put(originalKey(picture.id), picture.bytes, {
    httpMetadata: { contentType: `image/${picture.type}` },
    customMetadata: {
      type: picture.type,
      width: String(picture.width),
      height: String(picture.height),
      uploadedBy: picture.author,
      uploadedAt: picture.at.toISOString(),
    },
    sha256: picture.id,
  });
  const record = recordOf(object);
  if (!record) throw new Error('picture_store_failed: the stored metadata does not read back');
  return { record, created: true };
}

/**
 * Deletes a picture: its sizes first, then its original, so a delete cut short leaves the
 * picture listed (and deletable again) rather than sizes no listing shows. Returns the sizes it
 * deleted, by name (`640.webp`).
 */
export async function deletePicture(bucket: R2Bucket, id: string): Promise<string[]> {
  const deleted: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: sizesOf(id), cursor });
    const keys = listed.objects.map((object) => object.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted.push(...keys.map((key) => key.slice(sizesOf(id).length)));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  await bucket.delete(originalKey(id));
  return deleted;
}
