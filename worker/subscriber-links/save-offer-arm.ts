import type { ExperimentsDocument } from '../../shared/config/experiments';
import { inCoverage, inRange, layerBucket, pickVariant } from '../experiments/assignment/assign';

/**
 * The save offer test a subscriber is in on their page, and its arm (docs/experiments.md,
 * "Testing the save offer"). Drawn by the subscription id, hashed with the layer's and the
 * experiment's seeds as the funnel hashes a visitor id (assign.ts): the same subscription gets
 * the same arm on every opening of its page, from any link, in any browser, with nothing stored.
 *
 * Why the subscription and not the visitor who bought it: the page opens from an email or a
 * receipt, on any device, with no visitor cookie, and its link carries the subscription only.
 * The ledger does know the buyer, but asking it costs a Durable Object read on every page, and a
 * subscription bought before its buyer was counted, or imported, has none; the save offer is
 * about the subscription anyway, and one subscription is one subscriber on this page.
 */
export interface SaveOfferArm {
  experiment: string;
  variant: string;
  phase: number;
  /** The save offer variant it shows (content `saveOffer.variants`); null: the offer as written. */
  offer: string | null;
  /** Drawn in a running test, so its showing counts; false for a winner rolled out. */
  counted: boolean;
}

/**
 * The subscription's arm: in the first running test of layer `subscriber` whose range and
 * coverage take it, else the winner a shipped one rolled out (`roll_out`, counted nowhere);
 * null when no save offer test has a say.
 */
export function saveOfferArm(
  document: ExperimentsDocument,
  subscriptionId: string,
): SaveOfferArm | null {
  const layerSeed = document.layers?.subscriber?.seed ?? 'subscriber';
  const bucket = layerBucket(layerSeed, subscriptionId);
  let rolledOut: SaveOfferArm | null = null;
  for (const [id, experiment] of Object.entries(document.experiments)) {
    if (experiment.layer !== 'subscriber') continue;
    const phase = experiment.phase ?? 1;
    const shipped = experiment.decision?.action === 'roll_out' ? experiment.decision.variant : null;
    if (experiment.status === 'shipped' && shipped) {
      const offer = experiment.variants[shipped]?.change.saveOffer ?? null;
      rolledOut = { experiment: id, variant: shipped, phase, offer, counted: false };
      continue;
    }
    if (experiment.status !== 'running' || !inRange(bucket, experiment.range)) continue;
    if (!inCoverage(experiment.seed, subscriptionId, experiment.coverage)) continue;
    const weights = Object.entries(experiment.variants).map(([key, v]) => [key, v.weight] as const);
    const variant = pickVariant(experiment.seed, subscriptionId, weights);
    if (variant === null) continue;
    const offer = experiment.variants[variant]?.change.saveOffer ?? null;
    return { experiment: id, variant, phase, offer, counted: true };
  }
  return rolledOut;
}
