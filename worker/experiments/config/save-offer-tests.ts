import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { DocumentIssue } from '../../../shared/config/parse-document';

/**
 * What a save offer test may be (docs/experiments.md, "Testing the save offer"): an experiment of
 * layer `subscriber` whose variants change the save offer the subscriber's page shows before a
 * cancel, and nothing else. The page draws it by the subscription, not by a funnel visitor
 * (worker/subscriber-links/save-offer-arm.ts), so it knows no route and no visitor facts: it
 * takes every subscriber in its range and coverage, and names no audience. And a funnel change
 * (a flow, a screen, plans) never shows on the subscriber's page, so it has no place there.
 */

/** Whether `experiment` is a save offer test, or means to be one (a variant changes the offer). */
export function isSaveOfferTest(experiment: ExperimentDocument): boolean {
  return (
    experiment.layer === 'subscriber' ||
    Object.values(experiment.variants).some(({ change }) => change.saveOffer !== undefined)
  );
}

/** The save offer variants `content` defines, by name. */
const definedOffers = (content?: ContentDocument) =>
  Object.keys(content?.saveOffer?.variants ?? {});

/** Why a save offer test at `path` cannot run as written; none when it can. */
export function saveOfferTestIssues(
  path: string,
  experiment: ExperimentDocument,
  content?: ContentDocument,
): DocumentIssue[] {
  if (experiment.layer !== 'subscriber') {
    return [
      {
        path: `${path}.layer`,
        message: `changes the save offer, which the subscriber's page shows: put it in layer "subscriber"`,
      },
    ];
  }
  const issues: DocumentIssue[] = [];
  if (Object.keys(experiment.audience).length > 0) {
    issues.push({
      path: `${path}.audience`,
      message:
        "takes every subscriber: the subscriber's page knows no route or visitor facts; take the audience out (a range or the coverage takes fewer)",
    });
  }
  if (experiment.decision?.action === 'route_default') {
    issues.push({
      path: `${path}.decision.action`,
      message:
        'a save offer belongs to no route: ship the winner with roll_out, or write it into the save offer',
    });
  }
  const defined = definedOffers(content);
  for (const [key, { change }] of Object.entries(experiment.variants)) {
    const at = `${path}.variants.${key}.change`;
    const other = Object.keys(change).filter((field) => field !== 'saveOffer');
    if (other.length > 0) {
      issues.push({
        path: `${at}.${other[0]}`,
        message: `a test in layer "subscriber" changes the save offer only: take ${other.join(', ')} out, or put the test in a funnel layer`,
      });
    }
    if (change.saveOffer !== undefined && !defined.includes(change.saveOffer)) {
      issues.push({
        path: `${at}.saveOffer`,
        message: `names save offer "${change.saveOffer}", which is not defined: ${defined.length > 0 ? `choose one of ${defined.join(', ')}` : "add it to the save offer's variants"}`,
      });
    }
  }
  return issues;
}
