import type { ExperimentVariantResults } from '../../shared/console-api/experiment-results';
import { countText, moneyText } from '../kit/result-texts';
import { TableScroll } from '../results/TableScroll';

/**
 * What happened to a variant's failed renewals (docs/experiments.md, "After the first payment"):
 * how many of its buyers had a renewal declined, how many paid it afterwards (through the
 * recovery link of the product API's email, or its own retries), and what those payments
 * brought, per currency. Counts, not verdicts: shown once any renewal has failed.
 */
export function RecoveredRenewals({ variant }: { variant: ExperimentVariantResults }) {
  const { renewalFailed, recovered, revenue } = variant.recovery;
  if (renewalFailed === 0 && recovered === 0) return null;
  const captionId = `recovery:${variant.variant}`;
  return (
    <TableScroll labelledBy={captionId}>
      <table className="results-table">
        <caption id={captionId}>Failed renewals of {variant.name}</caption>
        <tbody>
          <tr>
            <th scope="row">Buyers with a renewal declined</th>
            <td>{countText(renewalFailed)}</td>
          </tr>
          <tr>
            <th scope="row">Of them, paid afterwards (recovered)</th>
            <td>{countText(recovered)}</td>
          </tr>
          {revenue.map((row) => (
            <tr key={row.currency}>
              <th scope="row">Recovered revenue, {row.currency}</th>
              <td>
                {moneyText(row.amountMinor, row.currency)}{' '}
                <span className="muted">({countText(row.renewals)} renewals)</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
