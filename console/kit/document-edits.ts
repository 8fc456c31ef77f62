import type { ExperimentSettings, VariantDocument } from '../../shared/config/split';
import type { ConfigDocument } from '../../shared/console-api/config';
import { flowNameOf } from './config-names';

/**
 * The edits a marketer makes to the config document, as pure functions: each returns a new
 * document and leaves the one it was given alone. Screens come from the worker's list of
 * known ids (ConsoleState.screens) only; the worker's validator checks the result again.
 */

function withVariants(
  document: ConfigDocument,
  variants: Record<string, VariantDocument>,
): ConfigDocument {
  return { ...document, split: { ...document.split, variants } };
}

function withFlows(document: ConfigDocument, flows: Record<string, string[]>): ConfigDocument {
  return { ...document, flows: { ...document.flows, flows } };
}

function withVariantFields(
  document: ConfigDocument,
  key: string,
  fields: Partial<VariantDocument>,
): ConfigDocument {
  const variant = document.split.variants[key];
  if (!variant) return document;
  return withVariants(document, { ...document.split.variants, [key]: { ...variant, ...fields } });
}

/** A variant's weight; 0 pauses it (new visitors stop getting it, those who have it keep it). */
export function withWeight(document: ConfigDocument, key: string, weight: number): ConfigDocument {
  return withVariantFields(document, key, { weight });
}

/** A variant walks the flow named `flow` from now on. */
export function withVariantFlow(
  document: ConfigDocument,
  key: string,
  flow: string,
): ConfigDocument {
  return withVariantFields(document, key, { flow });
}

/** A new flow, or a flow's new list of screens. */
export function withFlow(
  document: ConfigDocument,
  name: string,
  screens: readonly string[],
): ConfigDocument {
  return withFlows(document, { ...document.flows.flows, [name]: [...screens] });
}

/**
 * A new variant walking `flow`. A flow that does not exist yet is created as a copy of the
 * default flow, for the marketer to edit, so the document stays one the worker accepts.
 */
export function withVariant(
  document: ConfigDocument,
  key: string,
  variant: { weight: number; flow: string },
): ConfigDocument {
  const withItsFlow = Object.hasOwn(document.flows.flows, variant.flow)
    ? document
    : withFlow(document, variant.flow, document.flows.flows.default ?? []);
  return withVariants(withItsFlow, { ...withItsFlow.split.variants, [key]: { ...variant } });
}

function editScreens(
  document: ConfigDocument,
  flow: string,
  edit: (screens: string[]) => string[],
): ConfigDocument {
  const screens = document.flows.flows[flow];
  return screens ? withFlow(document, flow, edit([...screens])) : document;
}

/** `screen` added at the end of `flow`; a screen the flow lists already is not added twice. */
export function withScreenAdded(
  document: ConfigDocument,
  flow: string,
  screen: string,
): ConfigDocument {
  return editScreens(document, flow, (screens) =>
    screens.includes(screen) ? screens : [...screens, screen],
  );
}

/** The screen at `index` moved one place earlier (-1) or later (1); at an end, nothing moves. */
export function withScreenMoved(
  document: ConfigDocument,
  flow: string,
  index: number,
  by: -1 | 1,
): ConfigDocument {
  return editScreens(document, flow, (screens) => {
    const target = index + by;
    if (index < 0 || index >= screens.length || target < 0 || target >= screens.length) {
      return screens;
    }
    [screens[index], screens[target]] = [screens[target] as string, screens[index] as string];
    return screens;
  });
}

/** The screen at `index` taken out of `flow`. */
export function withScreenRemoved(
  document: ConfigDocument,
  flow: string,
  index: number,
): ConfigDocument {
  return editScreens(document, flow, (screens) => screens.filter((_, i) => i !== index));
}

/**
 * How the experiment is read from now on: `settings` over the document's own, a field set to
 * undefined taken out (the worker's default then applies), and no `experiment` left when it
 * would be empty. Neither field starts a new phase (worker/experiments/config/phases.ts).
 */
export function withExperiment(
  document: ConfigDocument,
  settings: ExperimentSettings,
): ConfigDocument {
  const merged: ExperimentSettings = { ...document.split.experiment, ...settings };
  const experiment = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined),
  ) as ExperimentSettings;
  if (Object.keys(experiment).length > 0) {
    // In place: the document keeps its order of keys, so undoing an edit leaves no difference.
    return { ...document, split: { ...document.split, experiment } };
  }
  const { experiment: _none, ...split } = document.split;
  return { ...document, split };
}

/** The variants that walk `flow`, in the document's order. */
export function variantsWalking(document: ConfigDocument, flow: string): string[] {
  return Object.keys(document.split.variants).filter(
    (key) => flowNameOf(document.split, key) === flow,
  );
}

/**
 * Everything that walks `flow`, in words, for the flow's summary: the split's variants, the
 * routes whose flow it is, and the experiments not archived with a variant swapping it in.
 * "variant lp17, route tt-dach, experiment flow-meta".
 */
export function flowWalkers(document: ConfigDocument, flow: string): string[] {
  const routes = document.routing.routes.filter((route) => route.flow === flow);
  const experiments = Object.entries(document.experiments.experiments).filter(
    ([, experiment]) =>
      experiment.status !== 'archived' &&
      Object.values(experiment.variants).some((variant) => variant.change.flow === flow),
  );
  return [
    ...variantsWalking(document, flow).map((key) => `variant ${key}`),
    ...routes.map((route) => `route ${route.id}`),
    ...experiments.map(([id]) => `experiment ${id}`),
  ];
}

/**
 * The screens a variant's visitors walk: its flow's, or the default flow's when its flow does not
 * exist (SPEC.md §4, worker/funnel/flow.ts).
 */
export function screensWalked(
  document: ConfigDocument,
  key: string,
): { flow: string; screens: readonly string[]; missing: boolean } {
  const flow = flowNameOf(document.split, key);
  const screens = document.flows.flows[flow];
  if (screens) return { flow, screens, missing: false };
  return { flow, screens: document.flows.flows.default ?? [], missing: true };
}
