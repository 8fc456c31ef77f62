import type { FunnelReportAnswer } from '../../../shared/console-api/funnel';
import { atom } from '../../kit/stores/atom';
import { type Loaded, loadedFrom } from '../../kit/stores/loaded';
import { type FunnelRange, fetchFunnelReport } from '../funnel-api';

/**
 * The funnel report as the worker last answered it for `range`; `idle` until someone opens the
 * page. Not read with the rest of the console: the read asks all 64 experiment shards.
 */
export type FunnelReport =
  | { kind: 'idle' }
  | Loaded<{ answer: FunnelReportAnswer; range: FunnelRange }>;

export const $funnelReport = atom<FunnelReport>({ kind: 'idle' });

/** Reads the report of `range`; loading meanwhile, so a failed read never shows an older one. */
export async function loadFunnelReport(range: FunnelRange): Promise<void> {
  $funnelReport.set({ kind: 'loading' });
  const answer = await fetchFunnelReport(range);
  $funnelReport.set(loadedFrom(answer, (value) => ({ answer: value, range })));
}
