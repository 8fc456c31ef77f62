import type { ScreenRef } from '../../shared/composed-screens';
import type { FunnelConfig } from '../config/load';
import {
  compiledExperiments,
  type ExperimentAssignment,
  visitorTrigger,
} from '../experiments/config/evaluate';
import type { FunnelShape } from '../experiments/config/funnel-shape';
import { exposedAt } from '../experiments/exposure/exposure-rules';
import type { VisitorExperiments } from './envs';

/**
 * Where a page stands among the visitor's experiments: which it exposes them to (the exposure
 * middleware counts them), whether the next screen would (the page must not prefetch it), and
 * which arms its field vitals count in.
 */

/**
 * Where the visitor's experiment `at` (of their assignments) first acts on their funnel, with the
 * content that declares the composed screens it may list.
 */
function triggerOf(config: FunnelConfig, visitor: VisitorExperiments, at: number): number | null {
  const { split, flows, routing, experiments: document } = config;
  const compiled = compiledExperiments(document, split, routing, config.content);
  return visitorTrigger(compiled, visitor.base, visitor.assignments, at, flows, config.content);
}

/**
 * The visitor's experiments this page exposes them to: those they are assigned to and not pinned
 * to, whose trigger in their funnel is at or before the screen served.
 */
export function exposedHere(
  config: FunnelConfig,
  path: string,
  visitor: VisitorExperiments,
): { assignment: ExperimentAssignment; trigger: ScreenRef }[] {
  const index = screenIndexOf(path, visitor.shape);
  const exposed: { assignment: ExperimentAssignment; trigger: ScreenRef }[] = [];
  visitor.assignments.forEach((assignment, at) => {
    if (assignment.state !== 'assigned') return;
    const trigger = triggerOf(config, visitor, at);
    if (exposedAt(index, trigger))
      exposed.push({ assignment, trigger: visitor.shape.screens[trigger as number]! });
  });
  return exposed;
}

/**
 * Whether showing `next` after `current` would expose the visitor to an experiment this page does
 * not: then the page must not prefetch it (worker/routes/screens/). A prefetched page is shown
 * from the browser's cache without asking the worker again, so its exposure would never be
 * counted, and the visitor would walk on unpinned, their variant followed by the hash alone.
 */
export function exposesNext(
  visitor: VisitorExperiments,
  config: FunnelConfig,
  current: ScreenRef,
  next: ScreenRef,
): boolean {
  if (!visitor.exposable || !visitor.assignments.some((a) => a.state === 'assigned')) return false;
  const here = visitor.shape.screens.indexOf(current);
  const there = visitor.shape.screens.indexOf(next);
  return visitor.assignments.some((assignment, at) => {
    if (assignment.state !== 'assigned') return false;
    const trigger = triggerOf(config, visitor, at);
    return exposedAt(there, trigger) && !exposedAt(here, trigger);
  });
}

/**
 * The experiments a page of `screen` counts in, for its field vitals (worker/collector/
 * vitals-sample.ts): those the visitor is pinned to, and those this page exposes them to.
 */
export function armsCountedOn(
  visitor: VisitorExperiments,
  config: FunnelConfig,
  path: string,
): { experiment: string; variant: string }[] {
  const pinned = visitor.assignments.filter((assignment) => assignment.state === 'pinned');
  const exposed = visitor.exposable
    ? exposedHere(config, path, visitor).map(({ assignment }) => assignment)
    : [];
  return [...pinned, ...exposed].map(({ experiment, variant }) => ({ experiment, variant }));
}

/** Where the page served stands in the visitor's funnel: `/` is its first screen; -1 outside it. */
function screenIndexOf(path: string, shape: FunnelShape): number {
  if (path === '/') return shape.screens.length > 0 ? 0 : -1;
  return shape.screens.indexOf(path.slice(1) as ScreenRef);
}
