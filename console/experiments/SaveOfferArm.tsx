import type { ExperimentVariantResults } from '../../shared/console-api/experiment-results';
import { countText, liftText, percentText } from '../kit/result-texts';
import { TableScroll } from '../results/TableScroll';
import { VerdictCell } from '../results/VerdictCell';
import { SaveOfferNetRevenue, SaveOfferReasonCounts } from './SaveOfferOutcomes';

/**
 * What a variant of a save offer test did (docs/experiments.md, "Testing the save offer"): the
 * subscriptions shown its offer before a cancel, how many tapped *Keep my subscription*, how
 * many took its action, how many cancelled after, and the keep rate (shown and not cancelled)
 * with its lift and verdict against the control's; under it, the reasons for leaving picked and
 * the net revenue after the offer. Nothing for any other test.
 */
export function SaveOfferArm({ variant }: { variant: ExperimentVariantResults }) {
  const result = variant.saveOffer;
  if (result === null) return null;
  const captionId = `save-offer:${variant.variant}`;
  const { kept } = result;
  return (
    <>
      <TableScroll labelledBy={captionId}>
        <table className="results-table">
          <caption id={captionId}>Save offer of {variant.name}: who stayed</caption>
          <tbody>
            <tr>
              <th scope="row">Subscriptions shown the offer</th>
              <td>{countText(result.shown)}</td>
            </tr>
            <tr>
              <th scope="row">Tapped Keep my subscription</th>
              <td>{countText(result.choseKeep)}</td>
            </tr>
            <tr>
              <th scope="row">Took the offer</th>
              <td>{countText(result.tookAction)}</td>
            </tr>
            <tr>
              <th scope="row">Cancelled after the offer</th>
              <td>{countText(result.cancelled)}</td>
            </tr>
            <tr>
              <th scope="row">Kept (shown and not cancelled)</th>
              <td>
                {countText(kept.count)} ({percentText(kept.rate)})
              </td>
            </tr>
            {variant.control ? null : (
              <>
                <tr>
                  <th scope="row">Keep rate against the control</th>
                  <td>{liftText(kept.relativeLift, kept.relativeInterval, kept.verdict)}</td>
                </tr>
                <tr>
                  <th scope="row">Verdict</th>
                  <VerdictCell verdict={kept.verdict} />
                </tr>
              </>
            )}
          </tbody>
        </table>
      </TableScroll>
      <SaveOfferReasonCounts variant={variant} reasons={result.reasons} />
      <SaveOfferNetRevenue variant={variant} revenue={result.netRevenue} />
    </>
  );
}
