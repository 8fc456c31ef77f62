import type { ExperimentDocument, VariantChange } from '../../shared/config/experiments';
import type { RoutingDocument } from '../../shared/config/routing';
import type { RouteStep, RouteVisitsAnswer } from '../../shared/console-api/routes';
import { DEFAULT_DRAIN_DAYS, type ExperimentStatus, type Slot } from '../../shared/experiments';
import { audienceText, groupText } from '../kit/audience-text';
import { planListParts } from '../kit/plan-text';
import { enteringText } from '../kit/ramp-line';

/**
 * An experiment in plain words for the experiments area and its dialogs: who it takes, what each
 * variant changes, what a status change does to whom, and how long it may take. Pure, so the
 * page and its tests agree.
 */

const percent = (share: number) =>
  new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(share);

const counts = new Intl.NumberFormat('en');

const list = (items: readonly string[]) =>
  new Intl.ListFormat('en', { type: 'conjunction' }).format(items);

/** "routes tiktok_de and default", "every route". */
export function routesText(routes: readonly string[] | undefined): string {
  if (!routes || routes.length === 0) return 'every route';
  return `${routes.length === 1 ? 'route' : 'routes'} ${list(routes)}`;
}

/**
 * Who enters, as one sentence: "Visitors on route default (TikTok ads in DE), 50% of them, in
 * 0–50% of layer paywall."
 */
export function experimentAudienceText(
  experiment: ExperimentDocument,
  routing: RoutingDocument,
): string {
  const { audience } = experiment;
  const [from, to] = experiment.range ?? [0, 1];
  const range = from === 0 && to === 1 ? 'the whole' : `${percent(from)}–${percent(to)} of the`;
  // A save offer test draws subscriptions on the subscriber's page, on no route
  // (docs/experiments.md, "Testing the save offer").
  if (experiment.layer === 'subscriber') {
    return `Subscribers who cancel from the subscriber's page: ${percent(experiment.coverage)} of those in ${range} layer subscriber.`;
  }
  const who: string[] = [];
  if (audience.audience !== undefined) {
    const saved = routing.audiences[audience.audience];
    who.push(saved ? `${audience.audience} (${audienceText(saved)})` : audience.audience);
  }
  for (const group of audience.groups ?? []) who.push(groupText(group));
  const whom = who.length > 0 ? `, who are ${who.join(' and ')}` : '';
  return `Visitors on ${routesText(audience.routes)}${whom}: ${percent(experiment.coverage)} of those in ${range} layer ${experiment.layer}.`;
}

/**
 * What a variant changes: "the flow lp17", "the landing screen one_pager_ai", "plans monthly,
 * quarterly", "GB paying in USD", "no offer countdown", "the save offer half_price".
 */
export function changeText(change: VariantChange): string {
  const parts: string[] = [];
  if (change.flow !== undefined) parts.push(`the flow ${change.flow}`);
  for (const [slot, screen] of Object.entries(change.screens ?? {}))
    parts.push(`the ${slot} screen ${screen}`);
  for (const [screen, variant] of Object.entries(change.content ?? {}))
    parts.push(`the content ${variant} of ${screen}`);
  parts.push(...planListParts(change));
  for (const [country, currency] of Object.entries(change.currencies ?? {}))
    parts.push(`${country} paying in ${currency}`);
  if (change.anchors === false) parts.push('no struck prices');
  if (change.countdown === false) parts.push('no offer countdown');
  if (change.saveOffer !== undefined) parts.push(`the save offer ${change.saveOffer}`);
  return parts.length === 0 ? 'nothing (the route as it is)' : list(parts);
}

export const STATUS_WORDS: Record<ExperimentStatus, string> = {
  draft: 'draft',
  running: 'running',
  paused: 'paused',
  stopped: 'stopped',
  shipped: 'shipped',
  archived: 'archived',
};

/** The status changes the area offers, each a button and a dialog. */
export type StatusMove = 'start' | 'pause' | 'resume' | 'stop' | 'archive';

export const MOVE_STATUS: Record<StatusMove, ExperimentStatus> = {
  start: 'running',
  pause: 'paused',
  resume: 'running',
  stop: 'stopped',
  archive: 'archived',
};

export const MOVE_LABELS: Record<StatusMove, string> = {
  start: 'Start',
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',
  archive: 'Archive',
};

/**
 * The moves a status allows (worker/experiments/config/edits.ts): ending is the decision's, and
 * archiving waits for the drain (layer-space.ts canArchive).
 */
export function movesOf(status: ExperimentStatus): StatusMove[] {
  if (status === 'draft') return ['start'];
  if (status === 'running') return ['pause', 'stop'];
  if (status === 'paused') return ['resume', 'stop'];
  return [];
}

/** "the 1,204 visitors already exposed", or without a count when the results are not known. */
function exposedText(exposed: number | null): string {
  if (exposed === null) return 'the visitors already exposed';
  return `the ${counts.format(exposed)} ${exposed === 1 ? 'visitor' : 'visitors'} already exposed`;
}

/**
 * Who enters once it starts. On a guarded ramp its first step says it, not its coverage (100%,
 * which a ramp requires): the step's share of those in its range enters, half in the variant and
 * half in the control, as the ramp's fields typed it and its status on the results says it.
 */
function startText(experiment: ExperimentDocument, routes: string, variants: number): string {
  const who = `New visitors on ${routes} who match its audience start entering`;
  const first = experiment.ramp?.steps[0];
  if (experiment.ramp && first) {
    const steps = experiment.ramp.steps.length;
    return `${who} on its guarded ramp: at step 1 of ${steps}, ${enteringText(first.coverage)} of those in its range of layer ${experiment.layer}, half in the variant and half in the control; more at each step while no guardrail breaks.`;
  }
  return `${who}: ${percent(experiment.coverage)} of those in its range of layer ${experiment.layer}, split between ${variants} variants by their weights.`;
}

/**
 * What a status change does, for whom: the dialog's sentences. `exposed` is the results' count
 * when known.
 */
export function moveText(
  move: StatusMove,
  experiment: ExperimentDocument,
  exposed: number | null,
): string[] {
  const routes = routesText(experiment.audience.routes);
  const drain = experiment.drainDays ?? DEFAULT_DRAIN_DAYS;
  const variants = Object.keys(experiment.variants).length;
  switch (move) {
    case 'start':
      return [
        startText(experiment, routes, variants),
        'Each is counted once, where the variants first differ; nobody sees a change before then.',
      ];
    case 'resume':
      return [
        `New visitors on ${routes} who match its audience enter again, in the same variants and the same phase.`,
        `${capital(exposedText(exposed))} keep their variant.`,
      ];
    case 'pause':
      return [
        `New visitors on ${routes} stop entering; they see the route as it is.`,
        `${capital(exposedText(exposed))} keep their variant while it is paused. Resuming takes new visitors again; the results go on.`,
      ];
    case 'stop':
      return [
        `New visitors on ${routes} stop entering; they see the route as it is.`,
        `${capital(exposedText(exposed))} keep their variant for ${drain} ${drain === 1 ? 'day' : 'days'}, then see the route as it is too.`,
        'A stopped experiment does not run again: duplicate it to test again. Record what it found with End.',
      ];
    case 'archive': {
      const [from, to] = experiment.range ?? [0, 1];
      const range = from === 0 && to === 1 ? 'the whole' : `${percent(from)}–${percent(to)} of`;
      const rolledOut =
        experiment.status === 'shipped' && experiment.decision?.action === 'roll_out'
          ? experiment.decision.variant
          : undefined;
      const who =
        rolledOut === undefined
          ? 'Its drain is over: nobody keeps its variant.'
          : `Variant ${rolledOut} is rolled out to its audience on ${routes}: archived, those visitors see the route as it is (the control, ${experiment.control}) again. To keep ${rolledOut} for them, make it the routes’ default instead.`;
      return [
        `${who} Archiving frees ${range} layer ${experiment.layer} and ${slotsText(experiment)} it changes for good: other experiments may take them.`,
        'Its results and decision stay readable. An archived experiment never runs again (duplicate it to test again), and it can then be deleted.',
      ];
    }
  }
}

/** What an experiment's variants change, as the slots it holds: "the flow and the paywall". */
function slotsText(experiment: ExperimentDocument): string {
  const slots = new Set<string>();
  for (const { change } of Object.values(experiment.variants)) {
    if (change.flow !== undefined) slots.add('the flow');
    for (const slot of Object.keys(change.screens ?? {})) slots.add(`the ${slot}`);
    // A currency, a struck price and the countdown show first where prices do.
    if (
      change.plans !== undefined ||
      change.currencies !== undefined ||
      change.anchors !== undefined ||
      change.countdown !== undefined
    )
      slots.add('the paywall');
    if (change.upsellPlans !== undefined || change.guidePlans !== undefined)
      slots.add('the upsell');
  }
  return slots.size === 0 ? 'no slot' : list([...slots]);
}

/** `text` with its first letter capital. */
export const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The traffic at a trigger deeper than the landing, as the route visits count it
 * (RouteVisitsAnswer's steps): the step whose count stands for it, what is counted, and a
 * sentence when the step is not the trigger's own screen. Nothing counts the screens between
 * the lookup and the sign-up, and the search leads on to the sign-up by itself, so the lookups
 * stand for both; the upsell and the last screen come after a purchase.
 */
const TRIGGER_TRAFFIC: Record<
  Exclude<Slot, 'landing'>,
  { step: RouteStep; counted: string; none: string; note?: string }
> = {
  searching: {
    step: 'lookup',
    counted: 'visitors who started a lookup',
    none: 'Nobody started a lookup',
  },
  signup: {
    step: 'lookup',
    counted: 'visitors who started a lookup',
    none: 'Nobody started a lookup',
    note: 'The sign-up follows the lookup.',
  },
  paywall: {
    step: 'paywall',
    counted: 'visitors who reached the paywall',
    none: 'Nobody reached the paywall',
  },
  upsell: {
    step: 'upsell',
    counted: 'buyers of a main plan',
    none: 'Nobody bought a main plan',
    note: 'The upsell follows the purchase.',
  },
  end: {
    step: 'upsell',
    counted: 'buyers of a main plan',
    none: 'Nobody bought a main plan',
    note: 'The last screen follows the purchase.',
  },
};

interface DurationEstimate {
  /** Visitors a day who can enter it. */
  perDay: number;
  /** Days until every arm has its planned sample. */
  days: number;
  /** Whether the traffic at its trigger was counted, or first visits stood in for it. */
  counted: 'trigger' | 'first_visits';
  trigger: Slot | null;
}

/**
 * How long an experiment may take: the visitors who reached its trigger on its routes in the
 * last days (first visits for a landing, the step counted at a deeper trigger), times its range
 * and coverage, are those who can enter it a day; the sample every arm needs, divided by that.
 * `trigger` is the slot where its variants differ, null when the preset cannot tell (a flow
 * swap). Where the trigger's step has no count yet, or is unknown, first visits stand in: an
 * upper bound. Null when there is no traffic to go on.
 */
export function durationEstimate(options: {
  visits: Record<string, number>;
  total: number;
  days: number;
  steps: RouteVisitsAnswer['steps'];
  trigger: Slot | null;
  routes: readonly string[];
  range: [number, number];
  coverage: number;
  arms: number;
  plannedPerArm: number;
}): DurationEstimate | null {
  const { visits, total, days, steps, trigger, routes, range, coverage } = options;
  const share = Math.max(0, range[1] - range[0]) * coverage;
  const perDayOf = (count: number) => (count / Math.max(days, 1)) * share;
  const estimate = (perDay: number, counted: DurationEstimate['counted']) =>
    perDay > 0
      ? {
          perDay,
          // Less a float's error: 10 000 at 199.99999999999997 a day is 50 days, not 51.
          days: Math.ceil((options.plannedPerArm * options.arms) / perDay - 1e-9),
          counted,
          trigger,
        }
      : null;
  const traffic = trigger === null || trigger === 'landing' ? null : TRIGGER_TRAFFIC[trigger];
  if (traffic) {
    const onRoutes = routes.length === 0 ? Object.keys(steps) : routes;
    const reached = onRoutes.reduce((sum, route) => sum + (steps[route]?.[traffic.step] ?? 0), 0);
    const counted = estimate(perDayOf(reached), 'trigger');
    if (counted) return counted;
  }
  const firstVisits =
    routes.length === 0 ? total : routes.reduce((sum, route) => sum + (visits[route] ?? 0), 0);
  return estimate(perDayOf(firstVisits), trigger === 'landing' ? 'trigger' : 'first_visits');
}

/** The duration estimate in words: which traffic it counted, and how sure it is. */
export function durationText(estimate: DurationEstimate | null, days: number): string {
  if (estimate === null)
    return `No first visits on these routes in the last ${days} days: no estimate of the duration yet.`;
  const perDay = counts.format(Math.round(estimate.perDay));
  const one = Math.round(estimate.perDay) === 1;
  const took = `${counts.format(estimate.days)} ${estimate.days === 1 ? 'day' : 'days'}`;
  const traffic =
    estimate.trigger === null || estimate.trigger === 'landing'
      ? null
      : TRIGGER_TRAFFIC[estimate.trigger];
  if (Math.round(estimate.perDay) < 1) {
    // A trickle that rounds to "0 visitors a day" would read beside thousands of days.
    const counted = (estimate.counted === 'trigger' && traffic?.counted) || 'first visits';
    return `Almost no traffic yet: fewer than 1 visitor a day can reach it (${counted} on its routes in the last ${days} days, times its range and coverage), so no estimate of the duration yet.`;
  }
  if (estimate.counted === 'trigger') {
    const counted = traffic?.counted ?? 'first visits';
    const sure = traffic
      ? 'An estimate: a visitor is counted each time they reach it, and its audience may leave some out, so allow longer.'
      : 'Allow longer if its audience leaves some of them out.';
    return [
      `About ${perDay} ${one ? 'visitor a day reaches' : 'visitors a day reach'} it (${counted} on its routes in the last ${days} days, times its range and coverage), so it takes about ${took}.`,
      traffic?.note,
      sure,
    ]
      .filter(Boolean)
      .join(' ');
  }
  const upperBound = `At most ${perDay} ${one ? 'visitor' : 'visitors'} a day can reach it (first visits on its routes in the last ${days} days, times its range and coverage), so it takes at least ${took}. This is an upper bound on the traffic reaching the trigger: only visitors who get to the screen where the variants differ are counted, so expect longer.`;
  return traffic
    ? `${traffic.none} on its routes in the last ${days} days, so first visits stand in. ${upperBound}`
    : upperBound;
}
