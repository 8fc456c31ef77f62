import type { TFunction } from 'i18next';

/** Where the visitor is in their flow: the `step`th of the `steps` screens after the landing. */
export interface FlowProgress {
  step: number;
  steps: number;
}

/**
 * SPEC.md §2 shared building blocks: the linear progress bar, segmented with a 5px gap (§9), one
 * segment per screen after the landing, those up to the visitor's filled. Server HTML and CSS
 * only. A progressbar with its name and value, so a screen reader says "Step 2 of 5"; its
 * segments are presentational.
 */
export function LinearProgress({ t, step, steps }: FlowProgress & { t: TFunction }) {
  return (
    <div
      className="linear-progress"
      role="progressbar"
      aria-label={t('kit.progress.label')}
      aria-valuemin={0}
      aria-valuemax={steps}
      aria-valuenow={step}
      aria-valuetext={t('kit.progress.step', { step, steps })}
    >
      {Array.from({ length: steps }, (_, index) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row; a segment is its position.
          key={index}
          className={
            index < step
              ? 'linear-progress__segment linear-progress__segment--done'
              : 'linear-progress__segment'
          }
        />
      ))}
    </div>
  );
}
