import type {
  AdCostError,
  AdCostsImportedAnswer,
  AdCostsInvalidAnswer,
} from '../../shared/console-api/ad-costs';
import { AD_COSTS_CSV_TYPE, CONSOLE_API } from '../../shared/console-api/config';
import { CONSOLE_FUNNEL_PATH, type FunnelReportAnswer } from '../../shared/console-api/funnel';
import { type Answer, consoleCall, refusalOf, sendToConsole } from '../kit/api';
import { failureText } from '../kit/error-texts';
import { refusalText } from '../kit/stores/loaded';

/** The report's days and route, as its query names them. */
export interface FunnelRange {
  from: string;
  to: string;
  /** '' for every route. */
  route: string;
}

/** The report's address: JSON for the page, or one of its tables as a CSV download. */
export function funnelUrl(range: FunnelRange, csv?: 'campaigns' | 'days'): string {
  const query = new URLSearchParams({ from: range.from, to: range.to });
  if (range.route !== '') query.set('route', range.route);
  if (csv) {
    query.set('format', 'csv');
    query.set('table', csv);
  }
  return `${CONSOLE_FUNNEL_PATH}?${query}`;
}

/** GET the funnel report (shared/console-api/funnel.ts), answered as every console call is. */
export const fetchFunnelReport = (range: FunnelRange): Promise<Answer<FunnelReportAnswer>> =>
  consoleCall<FunnelReportAnswer>(funnelUrl(range));

/** What an upload of ad costs came to, as the page says it. */
export type Uploaded =
  | { kind: 'imported'; imported: number; replaced: number }
  | { kind: 'invalid'; errors: AdCostError[]; more: number }
  | { kind: 'failed'; message: string };

/**
 * POSTs a CSV of ad costs (shared/console-api/ad-costs.ts, docs/marketers.md "Ad costs"): every
 * row written, or the file's problems by line with nothing written, or why the call failed.
 */
export async function uploadAdCosts(csv: string): Promise<Uploaded> {
  const sent = await sendToConsole(CONSOLE_API.adCosts, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': AD_COSTS_CSV_TYPE },
    body: csv,
  });
  if (!sent.ok) return { kind: 'failed', message: failureText(sent.failure) };
  const body = sent.body as AdCostsImportedAnswer | AdCostsInvalidAnswer;
  if (sent.status === 200 && body.ok) {
    return { kind: 'imported', imported: body.imported, replaced: body.replaced };
  }
  if (sent.status === 400 && !body.ok && body.error === 'invalid_ad_costs') {
    return { kind: 'invalid', errors: body.errors, more: body.more };
  }
  return { kind: 'failed', message: refusalText(refusalOf(sent.status, sent.body)) };
}
