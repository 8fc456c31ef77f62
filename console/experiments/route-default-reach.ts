import type { ExperimentDecision } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { checkDocument } from '../kit/api';
import { withDecision } from '../kit/experiment-edits';
import { withVariantAsRouteDefault } from '../kit/route-defaults';
import { splitRoutesOf, withSplitRoutes } from '../kit/routing-edits';

/**
 * Whether making a variant the default of its routes would reach their new visitors, asked of the
 * worker's own check before the marketer chooses (worker/experiments/config/decision-reach.ts):
 * the draft with that decision in it is checked as the review checks it, and the refusal at the
 * decision's action, which names what would hide the variant and what ships it instead, is said
 * in the dialog. One check per variant, while the dialog reads the results.
 */

/** Where the worker refuses a decision whose variant would not reach the routes' visitors. */
const reachPath = (id: string) => `experiments.experiments.${id}.decision.action`;

/** What the check is asked about: a decision of that kind, its evidence beside the point. */
function probe(variant: string, by: string): ExperimentDecision {
  return {
    result: 'won',
    action: 'route_default',
    variant,
    reason: 'checked before deciding',
    at: new Date().toISOString(),
    by,
    evidence: {
      phase: 1,
      metric: 'purchase',
      relativeLift: null,
      interval: null,
      verdict: 'better',
      srmAlarm: false,
    },
  };
}

/** What the check says of making each variant the routes' default. */
export interface RouteDefaultReach {
  /** Per variant, why it would not reach the routes' new visitors (the worker's words), or null. */
  hidden: Record<string, string | null>;
  /**
   * Per variant hidden only by the split test: the routes to take out of the split in the same
   * decision, after which it reaches them (docs/routes.md, "The split test and routes").
   */
  leavingSplit: Record<string, readonly string[]>;
}

/** The refusal of the decision's reach in the check of `document`, or null. */
async function reachRefusal(
  base: number | null,
  document: ConfigDocument,
  id: string,
): Promise<string | null> {
  const answer = await checkDocument({ base, document });
  if (answer.ok || answer.refusal.kind !== 'invalid') return null;
  const refused = answer.refusal.errors.filter((error) => error.path === reachPath(id));
  return refused.length === 0 ? null : refused.map((error) => error.message).join('; ');
}

/**
 * For each of `variants`, whether making it the routes' default reaches their new visitors, and
 * where it does not, whether taking the routes out of the split would make it. A check that
 * cannot answer (offline, a conflict) says nothing: the review and the publish run the same check
 * again.
 */
export async function routeDefaultReach(
  base: number | null,
  document: ConfigDocument,
  id: string,
  variants: readonly string[],
  kinds: Readonly<Record<string, string>>,
  by: string,
): Promise<RouteDefaultReach> {
  const drawn = splitRoutesOf(document);
  const named = document.experiments.experiments[id]?.audience.routes ?? [];
  const shared = named.filter((route) => drawn.includes(route));
  const reach: RouteDefaultReach = { hidden: {}, leavingSplit: {} };
  await Promise.all(
    variants.map(async (variant) => {
      const decided = withVariantAsRouteDefault(
        withDecision(document, id, probe(variant, by)),
        id,
        variant,
        kinds,
      );
      const hidden = await reachRefusal(base, decided, id);
      reach.hidden[variant] = hidden;
      if (hidden === null || shared.length === 0) return;
      const outOfSplit = withSplitRoutes(
        decided,
        drawn.filter((route) => !shared.includes(route)),
      );
      if ((await reachRefusal(base, outOfSplit, id)) === null) reach.leavingSplit[variant] = shared;
    }),
  );
  return reach;
}
