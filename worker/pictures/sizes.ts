import { PICTURE_MIME, type PictureFormat } from '../../shared/pictures';
import { sizeKey } from './library';
import { sniffPicture } from './sniff';

/**
 * One size of a picture in one format, made by Cloudflare Images (the IMAGES binding; sharp
 * under miniflare) and kept in R2 beside its original, so each is made once, ever: a page view
 * never transforms (docs/performance.md, "Pictures").
 */

/** Encoder quality per format: AVIF and WebP hold a photo's look at far fewer bytes than JPEG. */
const QUALITY: Record<PictureFormat, number> = { avif: 60, webp: 75, jpg: 80 };

export class PictureUnreadable extends Error {}

/** Makes and keeps `width` × `format` of the picture whose bytes `original` streams. */
export async function makeSize(
  images: ImagesBinding,
  bucket: R2Bucket,
  picture: { id: string; original: ReadableStream<Uint8Array> },
  width: number,
  format: PictureFormat,
): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    const result = await images
      .input(picture.original)
      .transform({ width, fit: 'scale-down' })
      .output({ format: PICTURE_MIME[format], quality: QUALITY[format] });
    bytes = new Uint8Array(await result.response().arrayBuffer());
  } catch (error) {
    throw new PictureUnreadable(error instanceof Error ? error.message : String(error));
  }
  // What came back is read like an upload: a decoder that gave up part way (a file cut after
  // its header) can hand back an empty or broken stream rather than an error.
  const made = sniffPicture(bytes);
  if (!made.ok || made.width !== width) {
    throw new PictureUnreadable(
      `made ${made.ok ? `${made.width} px` : made.reason}, not ${width} px`,
    );
  }
  await bucket.put(sizeKey(picture.id, width, format), bytes, {
    httpMetadata: { contentType: PICTURE_MIME[format] },
  });
  return bytes;
}
