import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDecision, ExperimentDocument } from '../../../shared/config/experiments';
import type {
  AudienceDocument,
  RouteDocument,
  RoutingDocument,
} from '../../../shared/config/routing';
import type { ExperimentSettings } from '../../../shared/config/split';
import type { ConfigDocument, ConsoleState } from '../../../shared/console-api/config';
import type { ExperimentStatus } from '../../../shared/experiments';
import { type HoldoutMove, movedHoldout } from '../../../shared/holdout';
import {
  withExperiment,
  withFlow,
  withScreenAdded,
  withScreenMoved,
  withScreenRemoved,
  withVariant,
  withVariantFlow,
  withWeight,
} from '../document-edits';
import {
  freshSeed,
  withAlertsWebhook,
  withDecision,
  withDuplicate,
  withExperimentAdded,
  withExperimentRemoved,
  withExperimentStatus,
} from '../experiment-edits';
import { withVariantAsRouteDefault } from '../route-defaults';
import {
  splitRoutesOf,
  withAudience,
  withCurrencies,
  withRouteAdded,
  withRouteFields,
  withRouteMoved,
  withRouteRemoved,
  withSplitRoutes,
} from '../routing-edits';
import { atom, useStore } from './atom';
import { $live, type Live } from './live';

/** The document a marketer is editing, and the version it started from. */
export interface Draft {
  /** The head seq the edit started from: a publish names it, so a later publish conflicts. */
  base: number | null;
  document: ConfigDocument;
  /** Weights of the variants paused in this draft, which Resume gives back. */
  pausedWeights: Record<string, number>;
}

export const $draft = atom<Draft | null>(null);

/** Whether the draft differs from the live config. */
function hasEdits(draft: Draft | null, live: Live): boolean {
  return Boolean(
    draft &&
      live.kind === 'ready' &&
      JSON.stringify(draft.document) !== JSON.stringify(live.state.live),
  );
}

export function useHasEdits(): boolean {
  return hasEdits(useStore($draft), useStore($live));
}

/** A fresh draft of what is live. */
export function startDraft(state: ConsoleState): void {
  $draft.set({
    base: state.head?.seq ?? null,
    document: structuredClone(state.live),
    pausedWeights: {},
  });
}

/** Throws the draft's edits away. */
export function discardEdits(): void {
  const live = $live.get();
  if (live.kind === 'ready') startDraft(live.state);
}

function edit(change: (document: ConfigDocument) => ConfigDocument): void {
  const draft = $draft.get();
  if (draft) $draft.set({ ...draft, document: change(draft.document) });
}

/** An edit of the content section (console/content/content-edits.ts). */
export function editContent(change: (content: ContentDocument) => ContentDocument): void {
  edit((document) => ({ ...document, content: change(document.content) }));
}

/** An edit of the flows section (a quiz's branches, console/quiz/question-edits.ts). */
export function editFlows(
  change: (flows: ConfigDocument['flows']) => ConfigDocument['flows'],
): void {
  edit((document) => ({ ...document, flows: change(document.flows) }));
}

export function setWeight(key: string, weight: number): void {
  edit((document) => withWeight(document, key, weight));
}

/** Weight 0: new visitors stop getting the variant; those who have it keep it. */
export function pauseVariant(key: string): void {
  const draft = $draft.get();
  const weight = draft?.document.split.variants[key]?.weight;
  if (!draft || weight === undefined || weight === 0) return;
  $draft.set({
    ...draft,
    document: withWeight(draft.document, key, 0),
    pausedWeights: { ...draft.pausedWeights, [key]: weight },
  });
}

/** Gives a variant paused in this draft its weight back. */
export function resumeVariant(key: string): void {
  const draft = $draft.get();
  const weight = draft?.pausedWeights[key];
  if (!draft || weight === undefined) return;
  const { [key]: _resumed, ...stillPaused } = draft.pausedWeights;
  $draft.set({
    ...draft,
    document: withWeight(draft.document, key, weight),
    pausedWeights: stillPaused,
  });
}

/** The routes the split test draws (console/split/SplitRoutes.tsx). */
export function setSplitRoutes(routes: readonly string[]): void {
  edit((document) => withSplitRoutes(document, routes));
}

/** The primary metric or the planned sample; undefined takes the field out (the default). */
export function setExperiment(settings: ExperimentSettings): void {
  edit((document) => withExperiment(document, settings));
}

export function chooseFlow(key: string, flow: string): void {
  edit((document) => withVariantFlow(document, key, flow));
}

export function addVariant(key: string, variant: { weight: number; flow: string }): void {
  edit((document) => withVariant(document, key, variant));
}

/** A new flow, starting as a copy of `copyOf`. */
export function addFlow(name: string, copyOf: string): void {
  edit((document) => withFlow(document, name, document.flows.flows[copyOf] ?? []));
}

export function addScreen(flow: string, screen: string): void {
  edit((document) => withScreenAdded(document, flow, screen));
}

export function moveScreen(flow: string, index: number, by: -1 | 1): void {
  edit((document) => withScreenMoved(document, flow, index, by));
}

export function removeScreen(flow: string, index: number): void {
  edit((document) => withScreenRemoved(document, flow, index));
}

export function addRoute(route: RouteDocument): void {
  edit((document) => withRouteAdded(document, route));
}

export function moveRoute(id: string, by: -1 | 1): void {
  edit((document) => withRouteMoved(document, id, by));
}

/** Pause, schedule, flow, plans or audience of a route; undefined takes a field out. */
export function setRouteFields(id: string, fields: Partial<Omit<RouteDocument, 'id'>>): void {
  edit((document) => withRouteFields(document, id, fields));
}

export function setCurrencies(currencies: RoutingDocument['currencies']): void {
  edit((document) => withCurrencies(document, currencies));
}

export function removeRoute(id: string): void {
  edit((document) => withRouteRemoved(document, id));
}

export function saveAudience(name: string, audience: AudienceDocument): void {
  edit((document) => withAudience(document, name, audience));
}

export function addExperiment(id: string, experiment: ExperimentDocument): void {
  edit((document) => withExperimentAdded(document, id, experiment));
}

/** The edit dialog's experiment in place of the draft's (experiment-edit-form.ts). */
export function replaceExperiment(id: string, experiment: ExperimentDocument): void {
  edit((document) => withExperimentAdded(document, id, experiment));
}

export function removeExperiment(id: string): void {
  edit((document) => withExperimentRemoved(document, id));
}

export function setExperimentStatus(id: string, status: ExperimentStatus): void {
  edit((document) => withExperimentStatus(document, id, status));
}

/**
 * Ends `id` with `decision`; made the routes' default, the variant is also baked into the routes
 * it names (`kinds`: each screen's kind, to find the slot a swapped screen stands at), and the
 * routes in `leaveSplit` stop being drawn by the split test, which would hide it from them.
 */
export function decideExperiment(
  id: string,
  decision: ExperimentDecision,
  kinds: Readonly<Record<string, string>>,
  leaveSplit: readonly string[] = [],
): void {
  edit((document) => {
    const decided = withDecision(document, id, decision);
    if (decision.action !== 'route_default' || decision.variant === undefined) return decided;
    const baked = withVariantAsRouteDefault(decided, id, decision.variant, kinds);
    if (leaveSplit.length === 0) return baked;
    const drawn = splitRoutesOf(baked).filter((route) => !leaveSplit.includes(route));
    return withSplitRoutes(baked, drawn);
  });
}

export function duplicateExperiment(id: string, copyId: string, seed: string): void {
  edit((document) => withDuplicate(document, id, copyId, seed));
}

export function setAlertsWebhook(webhook: string): void {
  edit((document) => withAlertsWebhook(document, webhook));
}

/**
 * The holdout moved in the draft (shared/holdout.ts movedHoldout, as `npm run experiments --
 * holdout` moves it), to publish as any edit; why not, when it cannot move so.
 */
export function moveHoldout(
  move: HoldoutMove,
  percent: number | null,
  now: Date,
): { ok: true } | { ok: false; error: string } {
  const draft = $draft.get();
  if (!draft) return { ok: false, error: 'the console has not loaded the live config yet' };
  const seed = `h-${freshSeed().slice(0, 8)}`;
  const moved = movedHoldout(draft.document.experiments, { move, percent, seed }, now);
  if (!moved.ok) return moved;
  edit((document) => ({ ...document, experiments: moved.value }));
  return { ok: true };
}
