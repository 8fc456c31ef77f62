/**
 * The marketers' pictures as the pages, the console and the worker name them: a picture is its
 * SHA-256 (64 hex digits), served at `/pictures/<hash>-<width>.<format>` in a fixed set of
 * widths and formats, each made once and cached immutably (worker/pictures/).
 */

/** Where pictures are served; everything under it is a picture or a 404. */
export const PICTURES_PATH = '/pictures';

/**
 * The widths a picture is served in, each below the original's; the original's own width is
 * served too (no picture is enlarged). Enough for a 390 px phone at 3x and a 1280 px desktop
 * column without a near-duplicate for every device.
 */
const PICTURE_WIDTHS = [320, 640, 960, 1280, 1920] as const;

/** The served formats, best first: what `<picture>` offers, the last the fallback every browser reads. */
export const PICTURE_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

export const PICTURE_MIME: Record<PictureFormat, 'image/avif' | 'image/webp' | 'image/jpeg'> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
};

/** The largest file the library takes. */
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
/** A picture's sides: under 16 px is an icon or a tracking pixel, over 6000 px a camera's raw. */
export const PICTURE_MIN_SIDE = 16;
export const PICTURE_MAX_SIDE = 6000;

/** A picture's id: its content's SHA-256 in lower-case hex. */
export const PICTURE_ID = /^[0-9a-f]{64}$/;

/** The widths a picture of `width` pixels is served in, narrowest first. */
export function pictureWidths(width: number): number[] {
  return [...PICTURE_WIDTHS.filter((w) => w < width), width];
}

export function pictureUrl(id: string, width: number, format: PictureFormat): string {
  return `${PICTURES_PATH}/${id}-${width}.${format}`;
}

/** A `srcset` of every size of a picture in one format. */
export function pictureSrcset(id: string, width: number, format: PictureFormat): string {
  return pictureWidths(width)
    .map((w) => `${pictureUrl(id, w, format)} ${w}w`)
    .join(', ');
}

/** The served name's parts (`<hash>-<width>.<format>`), or null for any other name. */
export function parsePictureName(
  name: string,
): { id: string; width: number; format: PictureFormat } | null {
  const match = /^([0-9a-f]{64})-([1-9][0-9]{1,3})\.(avif|webp|jpg)$/.exec(name);
  if (!match) return null;
  const [, id = '', width = '', format = ''] = match;
  return { id, width: Number(width), format: format as PictureFormat };
}
