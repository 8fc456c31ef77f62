import type {
  ExperimentResultMetric,
  SegmentResults,
} from '../../shared/console-api/experiment-results';
import { countText, liftText, METRIC_NAMES, meanText } from '../kit/result-texts';
import { TableScroll } from '../results/TableScroll';

/**
 * The results by one segment: only the levels with enough visitors in every variant, their
 * intervals corrected for the number shown, and the caution that a segment suggests, never
 * proves.
 */
export function SegmentView({
  segment,
  metrics,
  currency,
}: {
  segment: SegmentResults;
  metrics: readonly ExperimentResultMetric[];
  currency: string | null;
}) {
  const value = (metric: ExperimentResultMetric, mean: number) =>
    meanText(metric, mean, currency, '—');
  return (
    <div className="segment-view">
      <p className="notice notice--warning">{segment.caution}</p>
      {segment.levels.length === 0 ? (
        <p>No {segment.dimension} has 100 exposed visitors in every variant yet.</p>
      ) : null}
      {segment.levels.map((level) => (
        <TableScroll key={level.level} labelledBy={`segment:${level.level}`}>
          <table className="results-table">
            <caption id={`segment:${level.level}`}>
              {segment.dimension} {level.level}
            </caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">Exposed</th>
                {metrics.map((metric) => (
                  <th scope="col" key={metric}>
                    {METRIC_NAMES[metric]} <span className="muted">(lift, corrected interval)</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {level.variants.map((variant) => (
                <tr key={variant.variant}>
                  <th scope="row">{variant.variant}</th>
                  <td>{countText(variant.exposed)}</td>
                  {metrics.map((metric) => {
                    const found = variant.metrics.find((m) => m.metric === metric);
                    return (
                      <td key={metric}>
                        {found
                          ? `${value(metric, found.mean)}${found.relativeLift === null ? '' : `, ${liftText(found.relativeLift, found.relativeInterval)}`}`
                          : '—'}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ))}
      {segment.hiddenLevels > 0 ? (
        <p className="muted">
          {segment.hiddenLevels} more {segment.hiddenLevels === 1 ? 'level is' : 'levels are'}{' '}
          hidden: fewer than 100 exposed visitors in some variant.
        </p>
      ) : null}
    </div>
  );
}
