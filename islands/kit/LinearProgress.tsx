export interface LinearProgressProps {
  /** How many steps the bar is cut into. */
  segments: number;
  /** Steps done, 0 to `segments`; values outside are clamped. */
  current: number;
  /** Accessible name, e.g. the `kit.progress.label` translation. */
  label: string;
  /** Spoken value, e.g. `kit.progress.value` ('Step 2 of 4'), translated on the server. */
  valueText?: string;
}

/** SPEC.md §2, §9: the linear progress bar, segmented with a 5px gap (CSS). */
export function LinearProgress({ segments, current, label, valueText }: LinearProgressProps) {
  const count = Math.max(1, Math.floor(segments));
  const done = Math.min(count, Math.max(0, Math.floor(current)));
  return (
    <div
      className="linear-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={count}
      aria-valuenow={done}
      aria-valuetext={valueText}
    >
      {Array.from({ length: count }, (_, index) => (
        <span
          // Segments are positions, never reordered.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          className={
            index < done
              ? 'linear-progress__segment linear-progress__segment--done'
              : 'linear-progress__segment'
          }
        />
      ))}
    </div>
  );
}
