import type { ExperimentDocument, VariantChange } from '../../shared/config/experiments';
import type { ExperimentMetric, Layer, Slot } from '../../shared/experiments';
import { PLAN_FIELD_NAMES } from '../../shared/plans/screen-offers';
import { type RampForm, rampOfForm } from './ramp-form';

/**
 * The presets a new experiment starts from: each says which layer it suggests, what its variants
 * may change (one kind of "what changes" picker) and the metric it is decided on. A price test
 * is decided on mature net revenue (revenue after renewals and refunds, of visitors exposed long
 * enough ago), never on first payments, which would pick the cheapest intro.
 */

export const PRESETS = [
  'landing',
  'landing_content',
  'flow',
  'paywall_plans',
  'price',
  'country_price',
  'upsell',
  'upsell_price',
  'save_offer',
] as const;
export type Preset = (typeof PRESETS)[number];

/**
 * What a variant's picker changes: a flow, the screen at a slot, or the plan sets: the main
 * plans of the paywall and checkout, or the upsell's and the guide's (`after_main`).
 */
export type ChangeKind =
  | { kind: 'flow' }
  | { kind: 'screen'; slot: Slot }
  /** A content variant of a screen of the slot (shared/config/content.ts). */
  | { kind: 'content'; slot: Slot }
  | { kind: 'plans'; sells: 'main' | 'after_main' }
  /** The currency a country pays in, so the price point it is charged (a country price test). */
  | { kind: 'currencies' }
  /** A variant of the save offer before a cancel, on the subscriber's page (a save offer test). */
  | { kind: 'saveOffer' };

export interface PresetDefinition {
  label: string;
  layer: Layer;
  change: ChangeKind;
  primary: ExperimentMetric;
  /** The hypothesis's placeholder, to show the shape of a good one. */
  hypothesis: string;
  name: string;
}

export const PRESET_DEFINITIONS: Record<Preset, PresetDefinition> = {
  landing: {
    label: 'Landing page',
    layer: 'landing',
    change: { kind: 'screen', slot: 'landing' },
    primary: 'lookup',
    hypothesis: 'A landing that shows the result first gets more visitors to start a lookup.',
    name: 'Landing test',
  },
  landing_content: {
    label: 'Landing content (headline, picture, sections)',
    layer: 'landing',
    change: { kind: 'content', slot: 'landing' },
    primary: 'lookup',
    hypothesis: 'A headline that names the worry, with reviews above the form, gets more lookups.',
    name: 'Landing content test',
  },
  flow: {
    label: 'Whole flow',
    layer: 'flow',
    change: { kind: 'flow' },
    primary: 'purchase',
    hypothesis: 'A shorter flow gets more visitors to buy.',
    name: 'Flow test',
  },
  paywall_plans: {
    label: 'Paywall plans',
    layer: 'paywall',
    change: { kind: 'plans', sells: 'main' },
    primary: 'purchase',
    hypothesis: 'Offering the quarterly plan first gets more visitors to buy.',
    name: 'Paywall plans test',
  },
  price: {
    label: 'Price',
    layer: 'paywall',
    change: { kind: 'plans', sells: 'main' },
    primary: 'mature_revenue',
    hypothesis: 'A cheaper intro brings more net revenue once renewals and refunds are in.',
    name: 'Price test',
  },
  country_price: {
    label: 'Country price (the currency a country pays in)',
    layer: 'paywall',
    change: { kind: 'currencies' },
    primary: 'mature_revenue',
    hypothesis:
      'UK visitors charged in pounds at the local price bring more net revenue than in dollars.',
    name: 'Country price test',
  },
  upsell: {
    label: 'Upsell',
    layer: 'upsell',
    change: { kind: 'screen', slot: 'upsell' },
    primary: 'upsell',
    hypothesis: 'The private-search upsell sells more than the guide.',
    name: 'Upsell test',
  },
  upsell_price: {
    label: 'Upsell price',
    layer: 'upsell',
    change: { kind: 'plans', sells: 'after_main' },
    primary: 'mature_revenue',
    hypothesis: 'The upsell at 7.99 sells enough more than at 9.99 to bring more net revenue.',
    name: 'Upsell price test',
  },
  // docs/experiments.md, "Testing the save offer": drawn per subscription, so no routes or
  // audience; decided on net revenue, which a kept subscription's renewals add to.
  save_offer: {
    label: 'Save offer before a cancel',
    layer: 'subscriber',
    change: { kind: 'saveOffer' },
    primary: 'net_revenue',
    hypothesis: 'Offering half price for a month keeps more subscribers who were about to cancel.',
    name: 'Save offer test',
  },
};

/**
 * Where a preset's variants first differ, whose traffic the duration estimate counts: the slot
 * a screen swap changes, the paywall or the upsell for a plan set (the screen that offers the
 * plans), and null for a flow swap, whose flows may differ from the landing on or only further
 * along.
 */
export function triggerSlotOf(change: ChangeKind): Slot | null {
  if (change.kind === 'screen' || change.kind === 'content') return change.slot;
  if (change.kind === 'plans') return change.sells === 'main' ? 'paywall' : 'upsell';
  // A visitor's currency shows first where prices do: the paywall.
  if (change.kind === 'currencies') return 'paywall';
  // A flow's first difference is unknown; a save offer's is on no funnel screen at all.
  return null;
}

/** Variant keys in order: the control first. */
export const VARIANT_KEYS = ['a', 'b', 'c', 'd', 'e'] as const;

/**
 * The per-arm sample a new experiment is planned for, until the console can compute one from a
 * baseline and the lift to find: the results' own default (worker/experiments/results/split-answer.ts).
 */
export const DEFAULT_PLANNED_PER_ARM = 10_000;

export interface ExperimentForm {
  preset: Preset;
  name: string;
  hypothesis: string;
  layer: Layer;
  routes: string[];
  audience: string;
  /** Percent, 1–100. */
  coverage: number;
  /** Percent of the layer, [from, to). */
  range: [number, number];
  /** The changes of the variants after the control, in order. */
  changes: VariantChange[];
  primary: ExperimentMetric;
  plannedPerArm: number;
  /** Whether it starts on a guarded ramp, and its steps and guardrails (ramp-form.ts). */
  ramp: RampForm;
}

/** Whether a variant's picker left it changing nothing. */
export function changesNothing(change: VariantChange): boolean {
  return (
    change.flow === undefined &&
    Object.keys(change.screens ?? {}).length === 0 &&
    Object.keys(change.content ?? {}).length === 0 &&
    Object.keys(change.currencies ?? {}).length === 0 &&
    change.anchors === undefined &&
    change.countdown === undefined &&
    change.saveOffer === undefined &&
    PLAN_FIELD_NAMES.every((field) => (change[field] ?? []).length === 0)
  );
}

/**
 * The draft experiment a filled-in form stands for: equal weights, a fresh seed given, and its
 * ramp, if any, at its first step from `now`.
 */
export function experimentOfForm(
  form: ExperimentForm,
  seed: string,
  now = new Date(),
): ExperimentDocument {
  const variants: ExperimentDocument['variants'] = { a: { weight: 1, change: {} } };
  form.changes.forEach((change, index) => {
    const key = VARIANT_KEYS[index + 1];
    if (key) variants[key] = { weight: 1, change };
  });
  const audience = audienceOfForm(form);
  const experiment: ExperimentDocument = {
    name: form.name.trim(),
    status: 'draft',
    layer: form.layer,
    audience,
    coverage: round(form.coverage / 100),
    seed,
    control: 'a',
    variants,
    metrics: { primary: form.primary, plannedPerArm: form.plannedPerArm },
  };
  const [from, to] = form.range;
  if (from > 0 || to < 100) experiment.range = [round(from / 100), round(to / 100)];
  if (form.hypothesis.trim() !== '') experiment.hypothesis = form.hypothesis.trim();
  const ramp = rampOfForm(form.ramp, now);
  if (ramp) experiment.ramp = ramp;
  return experiment;
}

/** Four decimals: a share typed in percent stays the number typed (0.3, not 0.30000000000000004). */
const round = (share: number) => Math.round(share * 10_000) / 10_000;

/** Who the form lets in: its routes (none: every route) and its saved audience, if any. */
export function audienceOfForm(
  form: Pick<ExperimentForm, 'routes' | 'audience'>,
): ExperimentDocument['audience'] {
  const audience: ExperimentDocument['audience'] = {};
  if (form.routes.length > 0) audience.routes = [...form.routes];
  if (form.audience !== '') audience.audience = form.audience;
  return audience;
}
