import {
  ADJUSTED_FOR,
  type ExperimentMetricResult,
} from '../../shared/console-api/experiment-results';
import type { MetricResult } from '../../shared/console-api/results';
import { adjustedLiftText, countText, liftText, METRIC_NAMES, meanText } from '../kit/result-texts';
import { VerdictCell } from './VerdictCell';

/**
 * One variant's metrics, the primary one marked: converters, rate (or revenue per visitor), and
 * for a variant other than the control its lift with its interval and the verdict, and beside
 * them, where the answer has it and its interval is narrower, the lift adjusted for the visitors'
 * country, source, platform and language (docs/statistics.md, "Adjusted for what is known at
 * exposure"). Scrolls sideways
 * in its own box on a narrow screen, so the page itself never does.
 */
export function MetricTable({
  variant,
  control,
  currency,
}: {
  /** The split's variant or an experiment's, its metrics those to show. */
  variant: {
    variant: string;
    control: boolean;
    metrics: readonly (MetricResult | ExperimentMetricResult)[];
  };
  control: string;
  currency: string | null;
}) {
  const compared = !variant.control;
  // The adjusted lift only where it narrows the plain one's interval; no column where none does.
  const adjustedTexts = variant.metrics.map((metric) =>
    compared && 'adjusted' in metric ? adjustedLiftText(metric.adjusted) : null,
  );
  const adjusted = adjustedTexts.some((text) => text !== null);
  const captionId = `metrics:${variant.variant}`;
  return (
    // A box that scrolls must be reachable by keyboard to scroll it (axe's
    // scrollable-region-focusable): the table has nothing focusable of its own.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone.
    <section className="table-scroll" aria-labelledby={captionId} tabIndex={0}>
      <table className="results-table">
        <caption id={captionId}>
          {compared ? `${variant.variant} against ${control}` : `${variant.variant} (control)`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Converted</th>
            <th scope="col">Rate</th>
            {compared ? (
              <>
                <th scope="col">
                  Lift <span className="muted">(95% interval)</span>
                </th>
                <th scope="col">Verdict</th>
                {adjusted ? (
                  <th scope="col">
                    Adjusted lift <span className="muted">(for {ADJUSTED_FOR.join(', ')})</span>
                  </th>
                ) : null}
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {variant.metrics.map((metric, index) => (
            <tr
              key={metric.metric}
              className={metric.primary ? 'results-table__primary' : undefined}
            >
              <th scope="row">
                {METRIC_NAMES[metric.metric]}{' '}
                {metric.primary ? (
                  <span className="badge">primary</span>
                ) : (
                  <small className="muted">secondary</small>
                )}
              </th>
              <td>{countText(metric.count)}</td>
              <td>{meanText(metric.metric, metric.mean, currency, 'no revenue yet')}</td>
              {compared ? (
                <>
                  <td>{liftText(metric.relativeLift, metric.relativeInterval, metric.verdict)}</td>
                  <VerdictCell verdict={metric.verdict} />
                  {adjusted ? <td>{adjustedTexts[index]}</td> : null}
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
