import { audiencesDisjoint, rangesOverlap, WHOLE_LAYER } from '../../../shared/audiences-overlap';
import { screensInCode } from '../../../shared/composed-screens';
import type { ContentDocument } from '../../../shared/config/content';
import type {
  ExperimentDocument,
  ExperimentsDocument,
  VariantChange,
} from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import { contentOfRef } from '../../../shared/content-body';
import { LAYERS, type Slot, SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { holdsVisitors } from '../../../shared/layer-holders';
import { isSellingScreen, PLAN_FIELDS, SCREEN_OFFERS } from '../../../shared/plans/screen-offers';
import { SCREEN_IDS } from '../../../shared/screens';
import { applyChange, resolveFlow, routeFunnel, slotOf, slotOfRef } from '../../funnel/flow';
import { webhookAddressProblem } from '../../http/webhook-address';
import { HOLDOUT_PIN } from '../holdout/holdout';
import { holdoutIssues } from '../holdout/holdout-issues';
import { rampEditIssues, rollOutRampEditIssues } from '../ramps/ramp-edits';
import { decisionReachIssues } from './decision-reach';
import { decisionIssues } from './decisions';
import { editIssues, layerSeedIssues, newExperimentIssue, removalIssue } from './edits';
import { experimentFromSplit } from './migrate-split';
import { isSaveOfferTest, saveOfferTestIssues } from './save-offer-tests';
import { experimentTriggers } from './triggers';

/**
 * The one validator of the `experiments` section against the rest of the config (docs/analytics.md,
 * "Experiments"), after its shape passed its schema (shared/config/experiments.ts): the console's check and publish and `npm run
 * config` all run it, so what one refuses the others refuse, for the same reason. Refusals
 * (`issues`) block a publish; `warnings` publish but are likely mistakes. Each names its field
 * (`experiments.experiments.pw-us.variants.b.change.flow`) and what to do; one about two
 * experiments names both.
 *
 * The split section is an experiment too (migrate-split.ts): `split` in the flow layer, taking
 * the whole layer on its routes, so a new experiment cannot silently share its visitors. Its own
 * references are checked with the split (worker/config/document.ts crossCheck). A decision that
 * makes a variant its routes' default must reach their new visitors (decision-reach.ts).
 */

export interface ExperimentsContext {
  flows: FlowsDocument;
  routing: RoutingDocument;
  split: SplitDocument;
  /** The screens' content, whose variants a content test shows; absent: none defined. */
  content?: ContentDocument;
  /**
   * When the check runs: an ended experiment holds its layer and slots while the visitors it
   * exposed keep their variant (its drain days), and frees them after. Absent: until archived.
   */
  now?: Date;
  /**
   * Whether the worker is the development one (`npm start`): the alerts' webhook may then be a
   * listener on this machine over http. Absent: production's rules.
   */
  development?: boolean;
}

export interface ExperimentsCheck {
  issues: DocumentIssue[];
  warnings: DocumentIssue[];
}

const SECTION = 'experiments.experiments';
const pathOf = (id: string) => `${SECTION}.${id}`;

/**
 * What an experiment's variants change: `flow`, and each slot (`plans` change the paywall,
 * `upsellPlans` and `guidePlans` the upsell).
 */
type Target = Slot | 'flow';

function targetsOf(experiment: ExperimentDocument, content?: ContentDocument): Set<Target> {
  const targets = new Set<Target>();
  for (const { change } of Object.values(experiment.variants)) {
    if (change.flow !== undefined) targets.add('flow');
    for (const slot of Object.keys(change.screens ?? {}) as Slot[]) targets.add(slot);
    for (const slot of planSlots(change)) targets.add(slot);
    for (const screen of Object.keys(change.content ?? {})) {
      const slot = slotOfRef(screen, content);
      if (slot !== null) targets.add(slot);
    }
  }
  return targets;
}

/** The slots whose screens sell the plans a change sets: the paywall, the upsells. */
function planSlots(change: VariantChange): Slot[] {
  const slots: Slot[] = [];
  if (change.plans !== undefined) slots.push('paywall');
  if (change.upsellPlans !== undefined || change.guidePlans !== undefined) slots.push('upsell');
  return slots;
}

const targetLabel = (target: Target) =>
  target === 'flow'
    ? 'the flow'
    : target === 'paywall'
      ? 'the paywall (its screen or plans)'
      : target === 'upsell'
        ? 'the upsell (its screen or plans)'
        : `the ${target} screen`;

const label = (id: string) => (id === SPLIT_EXPERIMENT_ID ? '"split" (the split test)' : `"${id}"`);

const rangeText = (range: readonly [number, number]) => `[${range[0]}, ${range[1]}]`;

/** Screens a slot may take, in code and composed, for the message that refuses another. */
const screensOfSlot = (slot: Slot, content: ContentDocument | undefined) =>
  [...SCREEN_IDS, ...Object.keys(content?.composed ?? {})].filter(
    (screen) => slotOfRef(screen, content) === slot,
  );

/** Every flow, route, saved audience and screen an experiment names, checked to exist. */
function referenceIssues(
  id: string,
  experiment: ExperimentDocument,
  context: ExperimentsContext,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const path = pathOf(id);
  const routeIds = new Set(context.routing.routes.map((route) => route.id));
  experiment.audience.routes?.forEach((route, index) => {
    if (!routeIds.has(route))
      issues.push({
        path: `${path}.audience.routes.${index}`,
        message: `names route "${route}", which is not defined: add the route, or take it out`,
      });
  });
  const audience = experiment.audience.audience;
  if (audience !== undefined && !Object.hasOwn(context.routing.audiences, audience))
    issues.push({
      path: `${path}.audience.audience`,
      message: `names audience "${audience}", which is not defined: save it with the routes' audiences, or take it out`,
    });
  for (const [key, { change }] of Object.entries(experiment.variants)) {
    const at = `${path}.variants.${key}.change`;
    if (change.flow !== undefined && !Object.hasOwn(context.flows.flows, change.flow))
      issues.push({
        path: `${at}.flow`,
        message: `names flow "${change.flow}", which is not defined: add it to the flows, or choose another`,
      });
    for (const [slot, screen] of Object.entries(change.screens ?? {}) as [Slot, string][]) {
      if (slotOfRef(screen, context.content) !== slot)
        issues.push({
          path: `${at}.screens.${slot}`,
          message: `"${screen}" is not a ${slot} screen: choose one of ${screensOfSlot(slot, context.content).join(', ')}`,
        });
    }
    issues.push(...contentChangeIssues(`${at}.content`, experiment, change, context));
  }
  return issues;
}

/**
 * A content variant an experiment shows must be defined in the content section, on a screen of a
 * slot its layer may change: a landing-layer test changes landings, the flow layer any screen.
 */
function contentChangeIssues(
  at: string,
  experiment: ExperimentDocument,
  change: VariantChange,
  context: ExperimentsContext,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const [screen, name] of Object.entries(change.content ?? {})) {
    if (name === undefined) continue;
    const own = context.content ? contentOfRef(context.content, screen) : undefined;
    const variants = own?.variants ?? {};
    if (!Object.hasOwn(variants, name)) {
      const defined = Object.keys(variants);
      issues.push({
        path: `${at}.${screen}`,
        message: `names content "${name}" of ${screen}, which is not defined: ${defined.length > 0 ? `choose one of ${defined.join(', ')}` : "add it to the screen's content variants"}`,
      });
      continue;
    }
    const slot = slotOfRef(screen, context.content);
    if (experiment.layer !== 'flow' && slot !== experiment.layer) {
      issues.push({
        path: `${at}.${screen}`,
        message: `${screen} is not a ${experiment.layer} screen: a test in layer "${experiment.layer}" changes the content of ${experiment.layer} screens only; put it in the ${slot !== null && (LAYERS as readonly string[]).includes(slot) ? `${slot} or flow` : 'flow'} layer`,
      });
    }
  }
  return issues;
}

/**
 * A running or paused experiment must expose someone: a trigger on every route it names, or on
 * at least one route when it names none. Also warns where a variant swaps a slot (or offers plans)
 * that a named route's funnel does not have there: that part of the change shows no one.
 */
function triggerChecks(
  id: string,
  experiment: ExperimentDocument,
  context: ExperimentsContext & { experiments: ExperimentsDocument },
  check: ExperimentsCheck,
): void {
  const path = pathOf(id);
  const triggers = experimentTriggers(id, experiment, context);
  const named = experiment.audience.routes;
  if (experiment.status === 'running' || experiment.status === 'paused') {
    if (named !== undefined) {
      named.forEach((route, index) => {
        if (triggers.get(route) === null)
          check.issues.push({
            path: `${path}.audience.routes.${index}`,
            message: `never exposes visitors on route "${route}": its variants do not differ there; change what a variant changes, or take the route out`,
          });
      });
    } else if (![...triggers.values()].some((trigger) => trigger !== null)) {
      check.issues.push({
        path: `${path}.variants`,
        message:
          'never exposes visitors: its variants do not differ on any route; change what a variant changes',
      });
    }
  }
  if (named === undefined) return;
  const routes = new Map(context.routing.routes.map((route) => [route.id, route]));
  for (const [key, { change }] of Object.entries(experiment.variants)) {
    const slots = new Set<Slot>(Object.keys(change.screens ?? {}) as Slot[]);
    if (change.plans !== undefined) slots.add('paywall');
    for (const routeId of named) {
      const route = routes.get(routeId);
      if (route === undefined) continue;
      const flow = resolveFlow(context.flows, change.flow ?? route.flow);
      const shown = screensInCode(
        context.content ?? {},
        applyChange(routeFunnel(route, context.flows), change, context.flows).screens,
      );
      for (const role of ['upsell', 'guide'] as const) {
        const field = PLAN_FIELDS[role];
        if (change[field] === undefined) continue;
        if (shown.some((screen) => isSellingScreen(screen) && SCREEN_OFFERS[screen].sells === role))
          continue;
        check.warnings.push({
          path: `${path}.variants.${key}.change.${field}`,
          message: `variant "${key}" offers ${role} plans, but on route "${routeId}" flow "${flow.name}" has no ${role} screen: that part of the change shows no one there`,
        });
      }
      for (const slot of slots) {
        // A swap replaces screens in code only: a composed screen at the slot stays (applyChange).
        // Plans are offered on a composed paywall as on its from.
        const at = change.screens?.[slot] !== undefined ? flow.screens : shown;
        if (at.some((screen) => slotOf(screen) === slot)) continue;
        const what = change.screens?.[slot] ? `swaps the ${slot} screen` : 'offers plans';
        check.warnings.push({
          path: `${path}.variants.${key}.change`,
          message: `variant "${key}" ${what}, but on route "${routeId}" flow "${flow.name}" has no ${slot} screen: that part of the change shows no one there`,
        });
      }
    }
  }
}

interface Participant {
  id: string;
  experiment: ExperimentDocument;
}

/**
 * Experiments that can hold the same visitor: within a layer, overlapping ranges are refused
 * (a visitor is in at most one experiment of a layer) unless the audiences never meet; across
 * layers, two that may meet cannot change the same slot (the later layer's change would hide the
 * earlier one's from some of its visitors), and a flow variant lacking a slot another swaps is
 * told as a warning.
 */
function overlapChecks(
  participants: readonly Participant[],
  context: ExperimentsContext,
  check: ExperimentsCheck,
): void {
  participants.forEach((first, index) => {
    for (const second of participants.slice(index + 1)) {
      const a = first.experiment;
      const b = second.experiment;
      // Whether the audiences may meet is the costly question: asked only where it matters.
      const meet = () => !audiencesDisjoint(a.audience, b.audience, context.routing);
      const path = pathOf(second.id);
      const both = `experiments ${label(first.id)} and ${label(second.id)}`;
      if (a.layer === b.layer) {
        const ranges = [a.range ?? WHOLE_LAYER, b.range ?? WHOLE_LAYER] as const;
        if (rangesOverlap(ranges[0], ranges[1]) && meet())
          check.issues.push({
            path: `${path}.range`,
            message: `${both} of layer "${a.layer}" can take the same visitors: their ranges ${rangeText(ranges[0])} and ${rangeText(ranges[1])} overlap and their audiences can meet; give them ranges that do not overlap, or audiences that cannot meet (other routes)`,
          });
        continue;
      }
      const shared = [...targetsOf(a, context.content)].filter((target) =>
        targetsOf(b, context.content).has(target),
      );
      if (shared.length > 0) {
        if (meet())
          check.issues.push({
            path: `${path}.layer`,
            message: `${both} both change ${shared.map(targetLabel).join(' and ')} for visitors they can share (layers "${a.layer}" and "${b.layer}"): put them in one layer, or give them audiences that cannot meet (other routes)`,
          });
        continue;
      }
      const warnings = [
        ...flowWarnings(first, second, context),
        ...flowWarnings(second, first, context),
      ];
      if (warnings.length > 0 && meet()) check.warnings.push(...warnings);
    }
  });
}

/** Where a variant of `owner` walks a flow lacking a slot that `other` changes. */
function flowWarnings(
  owner: Participant,
  other: Participant,
  context: ExperimentsContext,
): DocumentIssue[] {
  const warnings: DocumentIssue[] = [];
  const slots = [...targetsOf(other.experiment, context.content)].filter(
    (t): t is Slot => t !== 'flow',
  );
  for (const [key, { change }] of Object.entries(owner.experiment.variants)) {
    if (change.flow === undefined) continue;
    const flow = resolveFlow(context.flows, change.flow);
    const missing = slots.filter(
      (slot) => !flow.screens.some((s) => slotOfRef(s, context.content) === slot),
    );
    if (missing.length === 0) continue;
    warnings.push({
      path:
        owner.id === SPLIT_EXPERIMENT_ID
          ? `split.variants.${key}`
          : `${pathOf(owner.id)}.variants.${key}.change.flow`,
      message: `experiment ${label(other.id)} never exposes visitors in variant "${key}" of ${label(owner.id)}: flow "${flow.name}" has no ${missing.join(' or ')} screen`,
    });
  }
  return warnings;
}

/**
 * Checks the experiments section `doc` against the flows, the routing and the split in effect
 * with it, and, given `live` (the section as published), each edit of a live experiment.
 */
export function validateExperiments(
  doc: ExperimentsDocument,
  context: ExperimentsContext,
  live?: ExperimentsDocument | null,
): ExperimentsCheck {
  const check: ExperimentsCheck = { issues: [], warnings: [] };
  const participants: Participant[] = [];
  const split = experimentFromSplit(context.split);
  // A split of one variant tests nothing: it holds no layer, or no new flow test could start.
  if (Object.keys(split.variants).length > 1)
    participants.push({ id: SPLIT_EXPERIMENT_ID, experiment: split });

  // The split first, then the document's order: a refusal about two experiments stands at the
  // later one's field, most often the one being added.
  for (const [id, experiment] of Object.entries(doc.experiments)) {
    const path = pathOf(id);
    if (id === SPLIT_EXPERIMENT_ID || id === HOLDOUT_PIN) {
      const whose = id === SPLIT_EXPERIMENT_ID ? "the split test's" : "the holdout's";
      check.issues.push({ path, message: `"${id}" is ${whose} id: give this experiment another` });
      continue;
    }
    check.issues.push(...decisionIssues(path, experiment));
    check.issues.push(...decisionReachIssues(path, id, experiment, doc, context, live));
    if (experiment.status === 'archived') continue;
    if (isSaveOfferTest(experiment)) {
      // The subscriber's page exposes it, not a funnel screen: no route, flow or trigger to check.
      check.issues.push(...saveOfferTestIssues(path, experiment, context.content));
    } else {
      check.issues.push(...referenceIssues(id, experiment, context));
      if (
        experiment.status === 'draft' ||
        experiment.status === 'running' ||
        experiment.status === 'paused'
      )
        triggerChecks(id, experiment, { ...context, experiments: doc }, check);
    }
    if (holdsVisitors(experiment, context.now)) participants.push({ id, experiment });
  }
  overlapChecks(participants, context, check);
  const webhook = doc.alerts?.webhook;
  const refused =
    webhook === undefined
      ? null
      : webhookAddressProblem(webhook, { development: context.development === true });
  if (refused !== null) check.issues.push({ path: 'experiments.alerts.webhook', message: refused });
  check.issues.push(...holdoutIssues(doc, live));
  if (live) {
    check.issues.push(...layerSeedIssues(doc, live));
    for (const [id, was] of Object.entries(live.experiments)) {
      const path = pathOf(id);
      const now = Object.hasOwn(doc.experiments, id) ? doc.experiments[id] : undefined;
      if (now === undefined) {
        const removed = removalIssue(path, was);
        if (removed) check.issues.push(removed);
      } else if (id !== SPLIT_EXPERIMENT_ID)
        check.issues.push(
          ...editIssues(path, now, was),
          ...rampEditIssues(path, now, was),
          ...rollOutRampEditIssues(path, now, was),
        );
    }
    for (const [id, experiment] of Object.entries(doc.experiments)) {
      if (Object.hasOwn(live.experiments, id) || id === SPLIT_EXPERIMENT_ID) continue;
      const issue = newExperimentIssue(pathOf(id), experiment.status);
      if (issue) check.issues.push(issue);
    }
  }
  return check;
}
