import { type ComposedScreens, type ScreenRef, screenOfRef } from '../../shared/composed-screens';
import type { FlowsDocument } from '../../shared/config/flows';
import type { SplitDocument } from '../../shared/config/split';
import { isPaywallScreen } from '../../shared/screens';

export interface ActiveFlow {
  name: string;
  screens: readonly ScreenRef[];
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
 * The landing itself, and a screen outside the flow, have no step.
 */
export function flowProgress(
  flow: ActiveFlow,
  current: ScreenRef,
): { step: number; steps: number } | null {
  const index = flow.screens.indexOf(current);
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
