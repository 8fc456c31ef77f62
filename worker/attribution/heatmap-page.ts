import {
  type HeatmapFacts,
  type HeatmapPage,
  heatmapExcluded,
  heatmapTags,
} from '../../shared/analytics/heatmap';
import type { ConsentState } from '../../shared/analytics/tracking';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import type { ExperimentAssignment } from '../experiments/config/evaluate';

/** What decides a page's heatmap. */
export interface HeatmapInput extends Omit<HeatmapFacts, 'experiments'> {
  /** The Clarity project id, null where unset or on a preview (PixelIds.clarity). */
  clarity: string | null;
  consent: ConsentState;
  /** The visitor's experiments (worker/middleware/experiments.ts). */
  assignments: readonly Pick<ExperimentAssignment, 'experiment' | 'variant' | 'state'>[];
}

/**
 * The heatmap a page may load (PageAnalytics.heatmap), or undefined where it never does: no
 * project id (or a marketer's preview, which has none), a screen with card fields, or a visitor
 * who declined (the page then holds no id and no tags at all). A page still waiting for an answer
 * gets it: the page loads it only after Accept (islands/heatmap/run.ts), the same rule as the
 * ad pixels (worker/attribution/consent.ts).
 *
 * The tags name the split's variant and each experiment the visitor is pinned or assigned to (a
 * shipped variant, applied to everyone, is no experiment any more): a session is tagged from its
 * first page, before the screen an experiment changes.
 */
export function heatmapPage(input: HeatmapInput): HeatmapPage | undefined {
  if (input.clarity === null || input.consent === 'denied' || heatmapExcluded(input.screen)) {
    return undefined;
  }
  const experiments = input.assignments
    .filter((a) => a.state !== 'applied' && a.experiment !== SPLIT_EXPERIMENT_ID)
    .map(({ experiment, variant }) => ({ experiment, variant }));
  return { clarity: input.clarity, tags: heatmapTags({ ...input, experiments }) };
}
