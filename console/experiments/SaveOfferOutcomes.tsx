import type { ContentDocument } from '../../shared/config/content';
import type {
  ExperimentVariantResults,
  SaveOfferResult,
  SaveOfferRevenue,
} from '../../shared/console-api/experiment-results';
import { countText, liftText, moneyText } from '../kit/result-texts';
import { useStore } from '../kit/stores/atom';
import { $live } from '../kit/stores/live';
import { TableScroll } from '../results/TableScroll';
import { VerdictCell } from '../results/VerdictCell';

/**
 * What came after a save offer test arm's offer besides who stayed (docs/experiments.md,
 * "Testing the save offer"): the reasons for leaving its cancelled picked, and its net revenue
 * per currency, judged against the control's in the same currency as a price test's currencies
 * are, since a subscriber kept at half price may bring less than one who left.
 */

/**
 * A reason as the live offer words it ("Too expensive (too_expensive)"): in English, else its
 * first language; its key alone where the live offer no longer has it.
 */
function reasonLabel(reason: string, content: ContentDocument | null): string {
  const texts = content?.saveOffer?.reasons?.[reason];
  const words = texts ? (texts.en ?? Object.values(texts)[0]) : undefined;
  return words ? `${words} (${reason})` : reason;
}

/** The reasons for leaving the arm's cancelled picked, most first; nothing while none was. */
export function SaveOfferReasonCounts({
  variant,
  reasons,
}: {
  variant: ExperimentVariantResults;
  reasons: SaveOfferResult['reasons'];
}) {
  const live = useStore($live);
  if (reasons.length === 0) return null;
  const content = live.kind === 'ready' ? live.state.live.content : null;
  const captionId = `save-offer-reasons:${variant.variant}`;
  const rows = [...reasons].sort((a, b) => b.count - a.count);
  return (
    <TableScroll labelledBy={captionId}>
      <table className="results-table">
        <caption id={captionId}>Reasons for leaving picked in {variant.name}</caption>
        <thead>
          <tr>
            <th scope="col">Reason</th>
            <th scope="col">Cancelled who picked it</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.reason}>
              <th scope="row">{reasonLabel(row.reason, content)}</th>
              <td>{countText(row.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** One currency's row: all of it, per subscription shown, and a variant's lift and verdict. */
function RevenueRow({ row, control }: { row: SaveOfferRevenue; control: boolean }) {
  return (
    <tr>
      <th scope="row">{row.currency}</th>
      <td>{countText(row.paying)}</td>
      <td>{moneyText(row.amountMinor, row.currency)}</td>
      <td>{moneyText(row.perShown, row.currency)}</td>
      {control ? null : (
        <>
          <td>{liftText(row.relativeLift, row.relativeInterval, row.verdict)}</td>
          <VerdictCell verdict={row.verdict} />
        </>
      )}
    </tr>
  );
}

/** The arm's net revenue after the offer, per currency paid in; nothing while none was paid. */
export function SaveOfferNetRevenue({
  variant,
  revenue,
}: {
  variant: ExperimentVariantResults;
  revenue: readonly SaveOfferRevenue[];
}) {
  if (revenue.length === 0) return null;
  const captionId = `save-offer-revenue:${variant.variant}`;
  return (
    <TableScroll labelledBy={captionId}>
      <table className="results-table">
        <caption id={captionId}>
          Net revenue after the offer of {variant.name}{' '}
          <span className="muted">(renewals less refunds and chargebacks)</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col">Subscriptions paying</th>
            <th scope="col">Net revenue</th>
            <th scope="col">Per subscription shown</th>
            {variant.control ? null : (
              <>
                <th scope="col">
                  Per shown against the control <span className="muted">(interval)</span>
                </th>
                <th scope="col">Verdict</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {revenue.map((row) => (
            <RevenueRow key={row.currency} row={row} control={variant.control} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
