import { useState } from 'react';
import { AREA_MAP_HEIGHT, AREA_MAP_WIDTH } from '../../shared/api/area-map';
import { seededRandom } from '../../shared/seeded-random';
import { areaAround, type Coordinates, projectOnto } from './geo-offset';

const WIDTH = AREA_MAP_WIDTH;
const HEIGHT = AREA_MAP_HEIGHT;

/**
 * Google's picture of the area (worker/area-map/), laid over the drawn map, which stays beneath
 * as its placeholder and its fallback: shown once loaded, gone if the worker draws none (no key,
 * a point it did not sign, Google down). Its size is set, so it moves nothing. alt="": the
 * figure's drawn map already names the area for a screen reader.
 */
function AreaPicture({ src }: { src: string }) {
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');
  if (state === 'failed') return null;
  return (
    <img
      className={`area-map__picture${state === 'shown' ? ' area-map__picture--shown' : ''}`}
      src={src}
      alt=""
      width={WIDTH}
      height={HEIGHT}
      decoding="async"
      onLoad={() => setState('shown')}
      onError={() => setState('failed')}
    />
  );
}

function streetsFor(centre: Coordinates | null): string[] {
  const random = seededRandom(
    centre ? Math.round(centre.lat * 1000) * 31 + Math.round(centre.lng * 1000) : 7,
  );
  const lines: string[] = [];
  for (let x = 20 + random() * 30; x < WIDTH; x += 40 + random() * 30) {
    lines.push(`M${x.toFixed(1)} 0L${(x + random() * 24 - 12).toFixed(1)} ${HEIGHT}`);
  }
  for (let y = 15 + random() * 20; y < HEIGHT; y += 30 + random() * 25) {
    lines.push(`M0 ${y.toFixed(1)}L${WIDTH} ${(y + random() * 20 - 10).toFixed(1)}`);
  }
  return lines;
}

/**
 * A drawn map of the area around the located point (SPEC.md §9: 3000 m each way), with no
 * tiles or third-party script: stylised streets, an avenue and a pulsing pin. The area's
 * projection puts the pin; the streets are seeded by the place, so each place looks its own.
 * Where the worker draws real maps, Google's picture of the area covers it once loaded.
 */
export function AreaMap({
  centre,
  label,
  located,
  image = null,
}: {
  centre: Coordinates | null;
  label: string;
  located: boolean;
  /** The worker's picture of the located area (shared/api/area-map.ts), or null for none. */
  image?: string | null;
}) {
  const pin =
    centre && located
      ? projectOnto(centre, areaAround(centre), WIDTH, HEIGHT)
      : { x: WIDTH / 2, y: HEIGHT / 2 };
  return (
    <figure className={`area-map${located ? ' area-map--located' : ''}`}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
        <rect className="area-map__ground" width={WIDTH} height={HEIGHT} />
        <path className="area-map__park" d="M236 22h70v46h-70z" />
        <path
          className="area-map__water"
          d={`M0 ${HEIGHT - 40}C90 ${HEIGHT - 70} 180 ${HEIGHT - 10} ${WIDTH} ${HEIGHT - 46}V${HEIGHT}H0z`}
        />
        <path className="area-map__streets" d={streetsFor(centre).join('')} />
        <path className="area-map__avenue" d={`M0 ${HEIGHT * 0.8}L${WIDTH} ${HEIGHT * 0.15}`} />
        {located ? (
          <g
            className="area-map__pin"
            transform={`translate(${pin.x.toFixed(1)} ${pin.y.toFixed(1)})`}
          >
            <circle className="area-map__pulse" r="22" />
            <circle className="area-map__dot" r="8" />
          </g>
        ) : (
          <g className="area-map__radar" transform={`translate(${WIDTH / 2} ${HEIGHT / 2})`}>
            <circle r="60" />
            <path d="M0 0L60 0A60 60 0 0 0 42 -42Z" />
          </g>
        )}
      </svg>
      {image ? <AreaPicture key={image} src={image} /> : null}
    </figure>
  );
}
