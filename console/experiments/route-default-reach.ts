import type { ExperimentDecision } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { checkDocument } from '../kit/api';
import { withDecision } from '../kit/experiment-edits';
import { withVariantAsRouteDefault } from '../kit/route-defaults';

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

/**
 * For each of `variants`, why it cannot be made the routes' default (the worker's words), or
 * null. A check that cannot answer (offline, a conflict) says nothing: the review and the
 * publish run the same check again.
 */
export async function routeDefaultRefusals(
  base: number | null,
  document: ConfigDocument,
  id: string,
  variants: readonly string[],
  kinds: Readonly<Record<string, string>>,
  by: string,
): Promise<Record<string, string | null>> {
  const answers = await Promise.all(
    variants.map(async (variant) => {
      const decided = withVariantAsRouteDefault(
        withDecision(document, id, probe(variant, by)),
        id,
        variant,
        kinds,
      );
      const answer = await checkDocument({ base, document: decided });
      if (answer.ok || answer.refusal.kind !== 'invalid') return [variant, null] as const;
      const refused = answer.refusal.errors.filter((error) => error.path === reachPath(id));
      return [
        variant,
        refused.length === 0 ? null : refused.map((error) => error.message).join('; '),
      ] as const;
    }),
  );
  return Object.fromEntries(answers);
}
