import {
  type PictureFormat,
  pictureSrcset,
  pictureUrl,
  pictureWidths,
} from '../../shared/pictures';
import type { ScreenProps } from '../types';

/**
 * A marketer's picture (worker/pictures/): AVIF, then WebP, then JPEG for the rest, each in
 * every size the picture is served in, so a browser fetches one file of the width its layout
 * and screen density ask for. Width and height are set, so nothing moves when it arrives.
 * Lazy below the fold; placed right under the heading, it is likely the page's largest paint
 * and is fetched at once instead.
 */

/**
 * The picture's width on the page: the landing's column (343 px, the page's width less its
 * padding below it) and, from 992 px, the desktop landing's full row.
 */
const SIZES = '(min-width: 992px) 960px, (min-width: 375px) 343px, calc(100vw - 32px)';

/** Sources before the <img>: the formats a browser may not read, best first. */
const SOURCES: readonly { format: PictureFormat; type: string }[] = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
];

/** The fallback's src for browsers without srcset: the size nearest a phone column at 2x. */
const FALLBACK_WIDTH = 640;

/** Styles on the element itself: no rule is added to the CSS every landing inlines. */
const IMG_STYLE = { display: 'block', width: '100%', height: 'auto', borderRadius: 16 } as const;

export function PictureSection({ picture, arrangement }: ScreenProps) {
  if (!picture) return null;
  const { id, width, height, alt } = picture;
  const shown = (arrangement ?? []).filter((section) => section.visible);
  const aboveFold = shown.findIndex((section) => section.id === 'picture') <= 1;
  const fallback = pictureWidths(width).find((w) => w >= FALLBACK_WIDTH) ?? width;
  return (
    <figure className="landing-section landing-picture">
      <picture>
        {SOURCES.map(({ format, type }) => (
          <source
            key={format}
            type={type}
            srcSet={pictureSrcset(id, width, format)}
            sizes={SIZES}
          />
        ))}
        <img
          src={pictureUrl(id, fallback, 'jpg')}
          srcSet={pictureSrcset(id, width, 'jpg')}
          sizes={SIZES}
          width={width}
          height={height}
          alt={alt}
          style={IMG_STYLE}
          {...(aboveFold
            ? { loading: 'eager', fetchPriority: 'high' }
            : { loading: 'lazy', decoding: 'async' })}
        />
      </picture>
    </figure>
  );
}
