import { type ComposedScreens, type ScreenRef, screenOfRef } from '../../shared/composed-screens';
import type { ContentChoices } from '../../shared/config/content';
import type { VariantChange } from '../../shared/config/experiments';
import type { FlowsDocument } from '../../shared/config/flows';
import type { OfferTerms } from '../../shared/config/offer-terms';
import type { SplitDocument } from '../../shared/config/split';
import type { Slot } from '../../shared/experiments';
import type { PlanFamilyId } from '../../shared/plans/catalogue';
import type { CountryCurrencies } from '../../shared/plans/currency';
import {
  isSellingScreen,
  PLAN_FIELD_NAMES,
  PLAN_FIELDS,
  type PlanChoices,
  SCREEN_OFFERS,
} from '../../shared/plans/screen-offers';
import type { FlowBranches } from '../../shared/quiz/branches';
import { isPaywallScreen, QUESTION_SCREEN } from '../../shared/screens';
import { chosenRouteOf } from '../routing/router';

export interface ActiveFlow {
  name: string;
  screens: readonly ScreenRef[];
  /** Where its questions lead by answer (shared/quiz/branches.ts); absent, none branch. */
  branches?: FlowBranches;
}

/**
 * The flow a visitor walks: the screens their route and tests give them, and their flow's
 * branches (shared/config/flows.ts) as those screens walk them. A test that swapped a slot's
 * screen (applyChange) swapped it in a branch's target too: a target is read as the screen that
 * stands at its place in the flow's list.
 */
export function activeFlow(
  flows: FlowsDocument,
  shape: Pick<FunnelShape, 'flow' | 'screens'>,
): ActiveFlow {
  const { flow: name, screens } = shape;
  const own =
    flows.branches && Object.hasOwn(flows.branches, name) ? flows.branches[name] : undefined;
  if (own === undefined) return { name, screens };
  const listed = Object.hasOwn(flows.flows, name) ? (flows.flows[name] ?? []) : [];
  const standing = (target: string) => {
    const at = listed.indexOf(target as ScreenRef);
    return at >= 0 && listed.length === screens.length ? (screens[at] ?? target) : target;
  };
  const branches: Record<string, FlowBranches[string]> = {};
  for (const [question, { branches: list, otherwise }] of Object.entries(own)) {
    branches[standing(question)] = {
      branches: list.map((branch) => ({ ...branch, next: standing(branch.next) })),
      ...(otherwise === undefined ? {} : { otherwise: standing(otherwise) }),
    };
  }
  return { name, screens, branches };
}

/** The flow a variant names; without one, the key with '/' read as '_' (lp11ch8/vc → lp11ch8_vc). */
export function flowNameOf(split: SplitDocument, variantKey: string): string {
  return split.variants[variantKey]?.flow ?? variantKey.replace('/', '_');
}

/** SPEC.md §4: an unknown flow name falls back to 'default'. */
export function resolveFlow(flows: FlowsDocument, name: string): ActiveFlow {
  const screens = Object.hasOwn(flows.flows, name) ? flows.flows[name] : undefined;
  if (screens) return { name, screens };
  return { name: 'default', screens: flows.flows.default ?? [] };
}

/**
 * Where `current` stands in the flow for the progress bar (SPEC.md §2 "Linear progress bar,
 * segmented"): the `step`th of the `steps` screens after the landing, the flow's first screen.
 * The landing itself, and a screen outside the flow, have no step. A quiz that opens the flow
 * with a question (no landing before it) counts from that question: its first is step 1.
 */
export function flowProgress(
  flow: ActiveFlow,
  current: ScreenRef,
  content: ComposedScreens = {},
): { step: number; steps: number } | null {
  const index = flow.screens.indexOf(current);
  const [first] = flow.screens;
  if (index >= 0 && first !== undefined && screenOfRef(content, first) === QUESTION_SCREEN) {
    return { step: index + 1, steps: flow.screens.length };
  }
  return index < 1 ? null : { step: index, steps: flow.screens.length - 1 };
}

/**
 * SPEC.md §2: the next screen is the entry after the current path segment in the active flow.
 * A screen that is not part of the flow continues to `offFlowNext` (its registry default);
 * the last screen of a flow has no next.
 */
export function nextScreen(
  flow: ActiveFlow,
  current: ScreenRef,
  offFlowNext: ScreenRef | null,
): ScreenRef | null {
  const index = flow.screens.indexOf(current);
  if (index === -1) return offFlowNext;
  return flow.screens[index + 1] ?? null;
}

/**
 * The flow's paywall: its first screen where plans are paid for, a composed one as the screen in
 * code it starts from (given the content that declares it), or null for a flow without one.
 */
/**
 * The flow's sign-up screen (its first signup or signup_testim, a composed one as the screen in
 * code it starts from), where a checkout reached without an account sends the visitor; null
 * for a flow without one.
 */
export function flowSignUp(flow: ActiveFlow, content: ComposedScreens): ScreenRef | null {
  const signUp = flow.screens.find((ref) => {
    const screen = screenOfRef(content, ref);
    return screen === 'signup' || screen === 'signup_testim';
  });
  return signUp ?? null;
}

export function flowPaywall(flow: ActiveFlow, content: ComposedScreens): ScreenRef | null {
  const paywall = flow.screens.find((ref) => {
    const screen = screenOfRef(content, ref);
    return screen !== null && isPaywallScreen(screen);
  });
  return paywall ?? null;
}

/** A source of numbers in [0, 1), like Math.random; injected so tests are deterministic. */
export type RandomSource = () => number;

export interface VariantAssignment {
  /** 'type' or 'type/subtype' (SPEC.md §4). */
  key: string;
  /** 'split_type' or 'split_type_subtype' (SPEC.md §4), sent as landing_type at sign-up. */
  landingType: string;
}

/** The split's `landing_type` of a variant key: `split_type` or `split_type_subtype` (SPEC.md §4). */
export function landingTypeOf(key: string): string {
  return `split_${key.replace('/', '_')}`;
}

/**
 * What a visitor walks once their route and their experiments' variants apply: the flow's name,
 * its screens, and the plans its paywall and checkout, its upsell and its guide offer (null:
 * each screen's own).
 */
export interface FunnelShape extends PlanChoices, OfferTerms {
  flow: string;
  screens: readonly ScreenRef[];
  /** The content variant a screen shows (shared/config/content.ts); absent: its own content. */
  content?: ContentChoices;
}

/** The slot a screen stands at (shared/experiments.ts SLOTS), or null for one no test swaps. */
export function slotOf(screen: string): Slot | null {
  if (screen.startsWith('one_pager')) return 'landing';
  if (screen.startsWith('searching')) return 'searching';
  if (screen.startsWith('signup') || screen === 'auto-signup') return 'signup';
  if (isPaywallScreen(screen)) return 'paywall';
  if (screen.startsWith('upsell')) return 'upsell';
  if (screen === 'success' || screen === 'payment_declined') return 'end';
  return null;
}

/**
 * The slot of a screen a flow names: a composed screen stands at its `from`'s
 * (shared/composed-screens.ts), given the content that declares it.
 */
export function slotOfRef(ref: string, content: ComposedScreens = {}): Slot | null {
  return slotOf(screenOfRef(content, ref) ?? ref);
}

/**
 * The shape with a variant's change made on top: its flow instead of the shape's (an unknown
 * flow falls back to 'default', SPEC.md §4), then each swapped slot's screens replaced, then its
 * plans. The control, which changes nothing, keeps the shape as it is.
 */
export function applyChange(
  shape: FunnelShape,
  change: VariantChange,
  flows: FlowsDocument,
): FunnelShape {
  let { flow, screens } = shape;
  if (change.flow !== undefined) {
    const resolved = resolveFlow(flows, change.flow);
    flow = resolved.name;
    screens = resolved.screens;
  }
  const swaps = change.screens;
  if (swaps !== undefined && Object.keys(swaps).length > 0) {
    screens = screens.map((screen) => {
      const slot = slotOf(screen);
      const swapped = slot === null ? undefined : swaps[slot];
      return (swapped as ScreenRef | undefined) ?? screen;
    });
  }
  const next: FunnelShape = { ...shape, flow, screens };
  if (change.content !== undefined && Object.keys(change.content).length > 0) {
    next.content = { ...shape.content, ...change.content };
  }
  for (const field of PLAN_FIELD_NAMES) {
    const plans = change[field];
    if (plans !== undefined) next[field] = plans as PlanFamilyId[];
  }
  if (change.currencies !== undefined) {
    next.currencies = { ...shape.currencies, ...change.currencies };
  }
  if (change.anchors === false) next.anchors = false;
  if (change.countdown === false) next.countdown = false;
  return next;
}

/**
 * Where an experiment acts on a funnel: the index of the first screen at which its variants'
 * shapes differ, by screen, by the content variant it shows (a headline test exposes at the
 * screen whose headline differs) or, on a selling screen (paywall, checkout, upsell, guide), by the
 * plans it offers: an upsell price test exposes at the upsell, not before. Every variant
 * walks the same screens before it, so a visitor counted from there on is counted at the same
 * moment in every arm. A composed screen sells what its `from` sells, given the content that
 * declares it. Null when the variants do not differ at all on this funnel.
 */
export function triggerIndex(
  shapes: readonly FunnelShape[],
  composed: ComposedScreens = {},
): number | null {
  const [first, ...others] = shapes;
  if (first === undefined || others.length === 0) return null;
  const longest = Math.max(...shapes.map((shape) => shape.screens.length));
  for (let index = 0; index < longest; index++) {
    const screen = first.screens[index];
    for (const other of others) {
      if (other.screens[index] !== screen) return index;
      if (screen === undefined) continue;
      if (contentOf(first, screen) !== contentOf(other, screen)) return index;
      const drawn = screenOfRef(composed, screen);
      if (drawn === null || !isSellingScreen(drawn)) continue;
      const field = PLAN_FIELDS[SCREEN_OFFERS[drawn].sells];
      if (!samePlans(first[field], other[field])) return index;
      // A country price test shows its price first where something is sold.
      if (!sameCurrencies(first.currencies, other.currencies)) return index;
      // Struck prices or a countdown turned off show first where the visitor is sold something.
      if (first.anchors !== other.anchors || first.countdown !== other.countdown) return index;
    }
  }
  return null;
}

/** The content variant a shape shows on `screen`, or null for the screen's own. */
function contentOf(shape: FunnelShape, screen: ScreenRef): string | null {
  return shape.content && Object.hasOwn(shape.content, screen)
    ? (shape.content[screen] ?? null)
    : null;
}

function samePlans(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((plan, index) => plan === b[index]);
}

/** Whether two shapes set the same currencies by country (absent: none of their own). */
function sameCurrencies(a: CountryCurrencies | undefined, b: CountryCurrencies | undefined) {
  const entries = (table: CountryCurrencies | undefined) =>
    JSON.stringify(Object.entries(table ?? {}).sort(([x], [y]) => x.localeCompare(y)));
  return entries(a) === entries(b);
}

/**
 * What a visitor of a route walks before any experiment changes it: its flow's screens (an
 * unknown flow falls back to `default`, SPEC.md §4), its plans, content variants and offer terms.
 * The edge serving a visitor (visitor-gets.ts) and the validator placing triggers read a route
 * through this one function, so they cannot disagree on it.
 */
export function routeFunnel(
  route: Omit<Parameters<typeof chosenRouteOf>[0], 'id'>,
  flows: FlowsDocument,
): FunnelShape {
  const { id: _id, flow, ...chosen } = chosenRouteOf({ ...route, id: '' });
  const resolved = resolveFlow(flows, flow);
  return { ...chosen, flow: resolved.name, screens: resolved.screens };
}
