import type {
  ExperimentResultMetric,
  SegmentDimension,
  SegmentLevelResults,
  SegmentResults,
} from '../../shared/console-api/experiment-results';
import { answerKeyOfName } from '../../shared/quiz/answers';
import { countText, liftText, METRIC_NAMES, meanText, verdictWord } from '../kit/result-texts';
import { TableScroll } from '../results/TableScroll';
import { levelName, type QuizSegment } from './quiz-segments';

/**
 * The results by one segment: only the levels with enough visitors in every variant, their
 * intervals corrected for the number shown, each with its verdict, and the caution that a
 * segment suggests, never proves. A quiz segment whose answers came after exposure is each
 * variant's own description: its levels need enough visitors in one variant, and judge nothing. A level's table has a row per metric and a column per
 * variant, so that it fits the results' box (1,008 px) however many metrics are shown; a cell
 * holds the rate, the lift with its interval and the verdict, each on a line.
 */
export function SegmentView({
  segment,
  metrics,
  currency,
  quiz,
}: {
  segment: SegmentResults;
  metrics: readonly ExperimentResultMetric[];
  currency: string | null;
  /** The live quiz's segments, whose choices name a quiz segment's levels. */
  quiz: readonly QuizSegment[];
}) {
  // Answers given after exposure describe each variant: a level needs 100 in one, not in every.
  const where = segment.afterExposure ? 'any variant' : 'every variant';
  return (
    <div className="segment-view">
      <p className="notice notice--warning">{segment.caution}</p>
      {segment.levels.length === 0 ? (
        <p>
          No {levelNoun(segment.dimension)} has 100 exposed visitors in {where} yet.
        </p>
      ) : null}
      {segment.levels.map((level) => (
        <LevelTable
          key={level.level}
          caption={levelName(segment.dimension, level.level, quiz)}
          level={level}
          metrics={metrics}
          currency={currency}
        />
      ))}
      {segment.hiddenLevels > 0 ? (
        <p className="muted">
          {segment.hiddenLevels} more {segment.hiddenLevels === 1 ? 'level is' : 'levels are'}{' '}
          hidden: fewer than 100 exposed visitors in {segment.afterExposure ? 'every' : 'some'}{' '}
          variant.
        </p>
      ) : null}
    </div>
  );
}

/** What one level of the segment is called in a sentence. */
function levelNoun(dimension: SegmentDimension): string {
  const key = answerKeyOfName(dimension);
  return key === null ? dimension : `answer to “${key}”`;
}

type LevelMetric = SegmentLevelResults['variants'][number]['metrics'][number];

/** One level of the segment: a row per metric, a column per variant. */
function LevelTable(props: {
  caption: string;
  level: SegmentLevelResults;
  metrics: readonly ExperimentResultMetric[];
  currency: string | null;
}) {
  const { level, metrics, currency } = props;
  const captionId = `segment:${level.level}`;
  return (
    <TableScroll labelledBy={captionId}>
      <table className="results-table results-table--wrap">
        <caption id={captionId}>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {level.variants.map((variant) => (
              <th scope="col" key={variant.variant}>
                {variant.variant}{' '}
                <span className="muted">({countText(variant.exposed)} exposed)</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {metrics.map((metric) => (
            <tr key={metric}>
              <th scope="row">{METRIC_NAMES[metric]}</th>
              {level.variants.map((variant) => (
                <LevelCell
                  key={variant.variant}
                  metric={metric}
                  found={variant.metrics.find((m) => m.metric === metric)}
                  currency={currency}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A variant's rate on one metric, its lift (corrected interval) and its verdict. */
function LevelCell(props: {
  metric: ExperimentResultMetric;
  found: LevelMetric | undefined;
  currency: string | null;
}) {
  const { metric, found, currency } = props;
  if (!found) return <td>—</td>;
  return (
    <td>
      {meanText(metric, found.mean, currency, '—')}
      {found.relativeLift === null ? null : (
        <>
          <br />
          {liftText(found.relativeLift, found.relativeInterval, found.verdict)}
        </>
      )}
      {found.verdict ? (
        <>
          <br />
          <span className={`verdict verdict--${found.verdict}`}>{verdictWord(found.verdict)}</span>
        </>
      ) : null}
    </td>
  );
}
