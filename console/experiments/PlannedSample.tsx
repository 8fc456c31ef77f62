import { useId, useMemo, useState } from 'react';
import { plannedVisitorsPerArm } from '../../shared/statistics/planned-sample';
import { countText } from '../kit/result-texts';
import { NumberField } from './FormFields';

/**
 * The visitors per variant a conversion test needs for a verdict on the smallest lift worth
 * finding 8 times in 10, with the results' own always-valid α, verdict rule and daily looks
 * (shared/statistics/planned-sample.ts), or null when the rates make no test: a rate of 0 or
 * 100%, no lift, or a variant rate past 100%.
 */
export function sampleFor(ratePercent: number, liftPercent: number): number | null {
  const rate = ratePercent / 100;
  const lift = liftPercent / 100;
  if (!(rate > 0 && rate < 1 && lift > 0 && rate * (1 + lift) < 1)) return null;
  return plannedVisitorsPerArm({ baselineRate: rate, relativeLift: lift });
}

/**
 * Works out the planned sample from what a marketer knows: today's rate of the metric and the
 * smallest lift worth acting on. The number goes into the plan only when they choose it. A save
 * offer test (`saveOffer`) plans on its keep rate, in subscribers shown the offer.
 */
export function PlannedSample({
  onPlan,
  saveOffer = false,
}: {
  onPlan: (perArm: number) => void;
  saveOffer?: boolean;
}) {
  const id = useId();
  const [rate, setRate] = useState(5);
  const [lift, setLift] = useState(20);
  // Worked out by numerical integration, a tenth of a second on a slow laptop: only when the rate
  // or the lift changes, not each time an edit elsewhere in the draft renders the form again.
  const sample = useMemo(() => sampleFor(rate, lift), [rate, lift]);
  return (
    <fieldset className="block planned-sample">
      <legend>Work out the planned sample</legend>
      <div className="row__fields">
        <NumberField
          id={`${id}-rate`}
          label={
            saveOffer
              ? 'Keep rate now (% of subscribers shown the offer)'
              : 'Conversion rate now (%)'
          }
          min={0.1}
          max={99}
          step={0.1}
          value={rate}
          onChange={(text) => setRate(Number(text))}
        />
        <NumberField
          id={`${id}-lift`}
          label="Smallest lift worth finding (%)"
          min={1}
          step={1}
          value={lift}
          onChange={(text) => setLift(Number(text))}
        />
      </div>
      <p aria-live="polite">
        {sample === null ? (
          'Enter a rate between 0 and 100% and a lift that keeps it below 100%.'
        ) : (
          <>
            To find a {lift}% lift on a {rate}% rate 8 times in 10, with the results’ daily looks:{' '}
            <strong>{countText(sample)}</strong>{' '}
            {saveOffer
              ? 'subscribers shown the offer per variant.'
              : 'visitors per variant. Revenue varies more between visitors than a conversion does: plan a price test for more.'}{' '}
            <button type="button" className="button" onClick={() => onPlan(sample)}>
              Plan for {countText(sample)} per variant
            </button>
          </>
        )}
      </p>
    </fieldset>
  );
}
