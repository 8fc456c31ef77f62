import type { ResultsAnswer } from '../../shared/console-api/results';
import { pValueText } from '../kit/result-texts';

/**
 * Whether visitors were drawn as the weights say (a chi-square test of the exposures). A broken
 * split makes every number below it meaningless, so its alarm comes first and is hard to miss.
 */
export function SampleRatioStatus({ check }: { check: ResultsAnswer['sampleRatio'] }) {
  if (check.alarm) {
    return (
      <div className="notice notice--error srm-alarm">
        <p>
          <strong>
            The split is broken: visitors do not match the weights ({pValueText(check.pValue)}).
          </strong>{' '}
          Every verdict of this phase is withheld.
        </p>
        <p>
          Fix the split before reading anything below: look for a weight changed outside the
          console, or a redirect or a cache in front of one variant.
        </p>
      </div>
    );
  }
  return (
    <p className="srm-healthy">
      <span aria-hidden="true">✓ </span>Split healthy: visitors match the weights (
      {pValueText(check.pValue)}).
    </p>
  );
}
