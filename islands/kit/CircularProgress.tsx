/** SPEC.md §2, §9: the circular progress indicator is 174px unless told otherwise. */
export const CIRCULAR_PROGRESS_SIZE = 174;

/** SPEC.md §5: a percentage from 0 to 100; anything else is brought into range. */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

const STROKE = 10;
const SMALL_RING_STROKE = 3;

/**
 * Circular progress, 0 to 100 (SPEC.md §2). Below 100 a small inner ring turns to show work in
 * progress; at 100 it gives way to a check mark. Plain component: renders on the server and in
 * islands alike.
 */
export function CircularProgress({
  value,
  label,
  size = CIRCULAR_PROGRESS_SIZE,
}: {
  value: number;
  /** Accessible name, e.g. "Search progress". */
  label: string;
  size?: number;
}) {
  const percent = clampPercent(value);
  const complete = percent === 100;
  const radius = (size - STROKE) / 2;
  const circumference = 2 * Math.PI * radius;
  const centre = size / 2;
  // The bar is drawn over the track: the same ring, so no sliver of either shows at its edge.
  const ring = { cx: centre, cy: centre, r: radius, strokeWidth: STROKE };
  return (
    <div
      className={`circular-progress${complete ? ' circular-progress--complete' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      style={{ width: size, height: size }}
    >
      <svg viewBox={`0 0 ${size} ${size}`} width={size} height={size} aria-hidden="true">
        <circle className="circular-progress__track" {...ring} />
        <circle
          className="circular-progress__bar"
          {...ring}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - percent / 100)}
          transform={`rotate(-90 ${centre} ${centre})`}
        />
        {complete ? (
          <path
            className="circular-progress__check"
            d={`M${size * 0.34} ${size * 0.52}l${size * 0.11} ${size * 0.11} ${size * 0.22}-${size * 0.24}`}
          />
        ) : (
          <circle
            className="circular-progress__small-ring"
            cx={centre}
            cy={centre}
            r={radius * 0.72}
            strokeWidth={SMALL_RING_STROKE}
            strokeDasharray={`${radius * 0.9} ${radius * 0.5}`}
          />
        )}
      </svg>
      {complete ? null : (
        <span className="circular-progress__value" aria-hidden="true">
          {percent}%
        </span>
      )}
    </div>
  );
}
