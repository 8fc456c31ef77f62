import {
  type ComposedScreens,
  type ScreenRef,
  screenOfRef,
} from '../../../shared/composed-screens';
import type { ContentChoices } from '../../../shared/config/content';
import type { VariantChange } from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import type { OfferTerms } from '../../../shared/config/offer-terms';
import type { Slot } from '../../../shared/experiments';
import type { PlanFamilyId } from '../../../shared/plans/catalogue';
import type { CountryCurrencies } from '../../../shared/plans/currency';
import {
  isSellingScreen,
  PLAN_FIELD_NAMES,
  PLAN_FIELDS,
  type PlanChoices,
  SCREEN_OFFERS,
} from '../../../shared/plans/screen-offers';
import { isPaywallScreen } from '../../../shared/screens';
import { resolveFlow } from '../../funnel/flow';
import { chosenRouteOf } from '../../routing/router';

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
