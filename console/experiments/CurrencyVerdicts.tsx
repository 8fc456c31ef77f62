import type { ExperimentVariantResults } from '../../shared/console-api/experiment-results';
import { countText, liftText, moneyText } from '../kit/result-texts';
import { TableScroll } from '../results/TableScroll';
import { VerdictCell } from '../results/VerdictCell';

/**
 * A price test's mature revenue in each currency paid in (docs/experiments.md, "Reading
 * results"): a price may win in one country and lose in another, and the rates that add the
 * currencies up for reading never decide which. Shown where buyers paid in two currencies or
 * more; with one, the mature revenue row above is the whole verdict.
 */
export function CurrencyVerdicts({
  variant,
  awaitingMatureSample,
}: {
  variant: ExperimentVariantResults;
  awaitingMatureSample: boolean;
}) {
  if (variant.byCurrency.length < 2) return null;
  const captionId = `currencies:${variant.variant}`;
  return (
    <TableScroll labelledBy={captionId}>
      <table className="results-table">
        <caption id={captionId}>
          Mature revenue of {variant.name} by currency{' '}
          <span className="muted">
            (per mature visitor of every country; intervals widened for {variant.byCurrency.length}{' '}
            currencies)
          </span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col">Buyers</th>
            <th scope="col">Per visitor</th>
            {variant.control ? null : (
              <>
                <th scope="col">
                  Lift <span className="muted">(interval)</span>
                </th>
                <th scope="col">Verdict</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {variant.byCurrency.map((row) => (
            <tr key={row.currency}>
              <th scope="row">{row.currency}</th>
              <td>{countText(row.count)}</td>
              <td>{moneyText(row.mean, row.currency)}</td>
              {variant.control ? null : (
                <>
                  <td>{liftText(row.relativeLift, row.relativeInterval, row.verdict)}</td>
                  <VerdictCell verdict={awaitingMatureSample ? null : row.verdict} />
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
