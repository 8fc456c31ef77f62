import type { ResultsAnswer, VariantResults } from '../../shared/console-api/results';
import {
  countText,
  liftText,
  METRIC_NAMES,
  moneyText,
  percentText,
  verdictWord,
} from '../kit/result-texts';
import { FunnelChart } from './FunnelChart';
import { LiftChart } from './LiftChart';
import { MetricTable } from './MetricTable';

/** A variant's verdict on the primary metric, the line a marketer reads first. */
function PrimaryVerdict({ variant }: { variant: VariantResults }) {
  const primary = variant.metrics.find((metric) => metric.primary);
  if (!primary?.verdict) return null;
  return (
    <p className="primary-verdict">
      {METRIC_NAMES[primary.metric]} (primary):{' '}
      <strong className={`verdict verdict--${primary.verdict}`}>
        {verdictWord(primary.verdict)}
      </strong>
      {primary.relativeLift !== null
        ? `, lift ${liftText(primary.relativeLift, primary.relativeInterval)}`
        : null}
    </p>
  );
}

/** Every currency's revenue added up in one, at the worker's fixed rates: for reading only. */
function ReportedRevenueLine({
  currency,
  minor,
  ratesDate,
  unconverted,
}: NonNullable<VariantResults['reportedRevenue']>) {
  return (
    <p className="muted">
      In all about {moneyText(minor, currency)} ({currency} at the fixed reporting rates of{' '}
      {ratesDate}
      {unconverted.length > 0 ? `; ${unconverted.join(', ')} left out, with no rate` : ''}).
    </p>
  );
}

/** One variant of a phase: its visitors, its metrics against the control, its funnel and lift. */
/**
 * What the worker left out of an arm's exposed, and why: known bots' page loads, pages whose
 * address had spent its day's exposures, and exposures their page's script never confirmed
 * (docs/statistics.md, "What is counted").
 */
function LeftOut({
  bots,
  overBudget,
  unconfirmed,
}: Pick<VariantResults, 'bots' | 'overBudget' | 'unconfirmed'>) {
  const parts = [
    bots > 0 ? `${countText(bots)} known ${bots === 1 ? 'bot' : 'bots'}` : null,
    overBudget > 0 ? `${countText(overBudget)} over their address’s daily budget` : null,
    unconfirmed > 0 ? `${countText(unconfirmed)} never confirmed by their page’s script` : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) return null;
  return (
    <>
      {' '}
      <small className="muted">({parts.join(', ')} not counted)</small>
    </>
  );
}

export function ResultCard({
  variant,
  answer,
}: {
  variant: VariantResults;
  answer: ResultsAnswer;
}) {
  const titleId = `result-title:${variant.variant}`;
  const other = Object.entries(variant.otherRevenue);
  return (
    <article className="card result-card" aria-labelledby={titleId}>
      <h3 className="card__title" id={titleId}>
        {variant.variant} {variant.control ? <span className="badge">control</span> : null}
      </h3>
      <p>
        <strong>{countText(variant.exposed)}</strong> visitors exposed, {percentText(variant.share)}{' '}
        of new visitors
        <LeftOut {...variant} />
      </p>
      <PrimaryVerdict variant={variant} />
      <MetricTable variant={variant} control={answer.control} currency={answer.mainCurrency} />
      {other.length > 0 ? (
        <p className="muted">
          Also {other.map(([currency, minor]) => moneyText(minor, currency)).join(', ')} in other
          currencies, neither converted nor compared.
        </p>
      ) : null}
      {other.length > 0 && variant.reportedRevenue ? (
        <ReportedRevenueLine {...variant.reportedRevenue} />
      ) : null}
      <FunnelChart variant={variant} />
      {variant.control ? null : (
        <LiftChart
          variant={variant.variant}
          control={answer.control}
          metric={answer.primaryMetric}
          points={answer.liftOverDays.filter((point) => point.variant === variant.variant)}
        />
      )}
    </article>
  );
}
