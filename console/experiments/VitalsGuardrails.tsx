import type { VitalMetric, VitalRating } from '../../shared/analytics/vitals';
import type {
  ExperimentVariantResults,
  VitalGuardrail,
} from '../../shared/console-api/experiment-results';
import { countText } from '../kit/result-texts';
import { TableScroll } from '../results/TableScroll';
import { VerdictCell } from '../results/VerdictCell';

/**
 * A variant's field Core Web Vitals (docs/experiments.md, "Reading results"): each 75th
 * percentile with its rating and samples, and for a variant the difference from the control
 * with its interval and verdict.
 */

const VITAL_NAMES: Record<VitalMetric, string> = {
  lcp: 'Largest Contentful Paint (loading)',
  inp: 'Interaction to Next Paint (responsiveness)',
  cls: 'Cumulative Layout Shift (stability)',
};

const RATING_WORDS: Record<VitalRating, string> = {
  good: 'good',
  'needs-improvement': 'needs improvement',
  poor: 'poor',
};

/** LCP and INP in whole ms, CLS to two decimals; a difference signed, with a true minus. */
function vitalText(metric: VitalMetric, value: number, signed = false): string {
  const format = new Intl.NumberFormat('en', {
    maximumFractionDigits: metric === 'cls' ? 3 : 0,
    minimumFractionDigits: metric === 'cls' ? 2 : 0,
    signDisplay: signed ? 'exceptZero' : 'auto',
  });
  return `${format.format(value).replace('-', '−')}${metric === 'cls' ? '' : ' ms'}`;
}

function differenceText(vital: VitalGuardrail): string {
  if (vital.difference === null) return '—';
  const shown = vitalText(vital.metric, vital.difference, true);
  if (vital.interval === null) return shown;
  const { lower, upper } = vital.interval;
  return `${shown} (${vitalText(vital.metric, lower, true)} to ${vitalText(vital.metric, upper, true)})`;
}

function VitalRow({ vital, control }: { vital: VitalGuardrail; control: boolean }) {
  return (
    <tr>
      <th scope="row">{VITAL_NAMES[vital.metric]}</th>
      <td>
        {vital.p75 === null
          ? '—'
          : `${vitalText(vital.metric, vital.p75)}${vital.rating ? ` (${RATING_WORDS[vital.rating]})` : ''}`}
      </td>
      <td>{countText(vital.samples)}</td>
      {control ? null : (
        <>
          <td>{differenceText(vital)}</td>
          <VerdictCell verdict={vital.verdict} />
        </>
      )}
    </tr>
  );
}

export function VitalsGuardrails({ variant }: { variant: ExperimentVariantResults }) {
  const id = `vitals:${variant.variant}`;
  return (
    <TableScroll labelledBy={id}>
      <table className="results-table">
        <caption id={id}>
          Page speed of {variant.name}: field Core Web Vitals, 75th percentile of sampled visitors
        </caption>
        <thead>
          <tr>
            <th scope="col">Vital</th>
            <th scope="col">75th percentile</th>
            <th scope="col">Visitors sampled</th>
            {variant.control ? null : (
              <>
                <th scope="col">Difference from control</th>
                <th scope="col">Verdict</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {variant.vitals.map((vital) => (
            <VitalRow key={vital.metric} vital={vital} control={variant.control} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
