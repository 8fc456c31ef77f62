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

/** The phone's column: the page's 343 px less its padding on a narrower phone. */
const PHONE_SIZES = '(min-width: 375px) 343px, calc(100vw - 32px)';

/**
 * The picture's width on the page. From 992 px a landing with features splits in two columns
 * (screens/kit/styles/split.ts: 960 px less a 48 px gap) and whatever follows the features
 * spans the whole row; a landing without them keeps the phone's column.
 */
function sizesOf(shown: readonly string[]): string {
  const features = shown.findIndex((id) => id === 'features' || id === 'feature_grid');
  if (features < 0) return PHONE_SIZES;
  const wide = shown.indexOf('picture') > features ? '960px' : '456px';
  return `(min-width: 992px) ${wide}, ${PHONE_SIZES}`;
}

/** Sources before the <img>: the formats a browser may not read, best first. */
const SOURCES: readonly { format: PictureFormat; type: string }[] = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
];

/** The fallback's src for browsers without srcset: the size nearest a phone column at 2x. */
const FALLBACK_WIDTH = 640;

/** Styles on the elements themselves: no rule is added to the CSS every landing inlines. */
const FIGURE_STYLE = { marginInline: 0 } as const;
const IMG_STYLE = { display: 'block', width: '100%', height: 'auto', borderRadius: 16 } as const;

export function PictureSection({ picture, arrangement }: ScreenProps) {
  if (!picture) return null;
  const { id, width, height, alt } = picture;
  const shown = (arrangement ?? []).filter((section) => section.visible).map(({ id }) => id);
  const aboveFold = shown.indexOf('picture') <= 1;
  const sizes = sizesOf(shown);
  const fallback = pictureWidths(width).find((w) => w >= FALLBACK_WIDTH) ?? width;
  return (
    <figure className="landing-section landing-picture" style={FIGURE_STYLE}>
      <picture>
        {SOURCES.map(({ format, type }) => (
          <source
            key={format}
            type={type}
            srcSet={pictureSrcset(id, width, format)}
            sizes={sizes}
          />
        ))}
        <img
          src={pictureUrl(id, fallback, 'jpg')}
          srcSet={pictureSrcset(id, width, 'jpg')}
          sizes={sizes}
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
