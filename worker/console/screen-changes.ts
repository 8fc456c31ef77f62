import { COMPOSED_SCREENS } from '../../screens/composed';
import { screenOfRef } from '../../shared/composed-screens';
import type { ContentChoices, ContentDocument, ScreenBody } from '../../shared/config/content';
import type { RoutingDocument } from '../../shared/config/routing';
import type { ScreenChange } from '../../shared/console-api/config';
import type { ContentPreviewRoute } from '../../shared/console-api/content';
import { contentOfRef, screenBodyOf } from '../../shared/content-body';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { sameJson } from '../config/diff';
import { compiledExperiments } from '../experiments/config/evaluate';
import { armsProblem, type ServedConfig, visitorGets } from '../experiments/config/visitor-gets';
import type { FunnelShape } from '../funnel/flow';
import { chosenRouteOf, type VisitorFacts } from '../routing/router';

/**
 * The review's "How the screens change" (docs/marketers.md, "Review and publish"): which screens
 * a publish changes for whom, worked out by the code the edge serves with (visitorGets), under
 * the live config and under the draft, so the console draws what visitors get and decides
 * nothing of its own: one resolver for the edge and the console.
 *
 * Each route's visitors are served their own funnel (every running experiment at its control, a
 * rolled-out winner applied), and each arm of a running or paused experiment that takes the route
 * is served to its visitors: every screen of such a funnel whose content (what it starts from,
 * its sections, texts and picture in the content variant shown) differs live and after publishing
 * is a change, drawn as that route serves it (its flow, plans and content variants). A route the
 * publish adds is compared with what the same route would serve under the live config, so only
 * the content's change shows. The same change on several routes is one, naming them all. A
 * screen or variant whose content changes but which no route serves yet is drawn as the route
 * `default` would show it, naming no route. Pure: nothing read, nothing written.
 */

/** A described visitor knows nothing of themselves: audiences aside, the route decides. */
const NO_FACTS: VisitorFacts = { get: () => null };

type Arm = ScreenChange['arm'];

/** What a screen is drawn from in one variant: its screen in code, its body, its rating. */
function drawnOf(content: ContentDocument, screen: string, variant: string | null) {
  const from = screenOfRef(content, screen);
  if (from === null) return null;
  const own = contentOfRef(content, screen) ?? {};
  return { from, body: screenBodyOf(own, variant), rating: own.rating ?? null };
}

/** The variant `choice` names if the screen has it; else null, the screen's own content. */
function shownVariant(content: ContentDocument, screen: string, choice: string | undefined) {
  const variants = contentOfRef(content, screen)?.variants;
  return choice !== undefined && variants && Object.hasOwn(variants, choice) ? choice : null;
}

/** A body's texts in one language and its picture's alt text there, as one comparable value. */
const textsIn = (body: ScreenBody, language: string) =>
  JSON.stringify([body.copy?.[language] ?? {}, body.picture?.alt[language] ?? null]);

/** The languages whose texts differ between two bodies (every language of a new one's). */
function changedLanguages(live: ScreenBody | null, draft: ScreenBody): string[] {
  const before = live ?? {};
  const languages = new Set([
    ...Object.keys(before.copy ?? {}),
    ...Object.keys(draft.copy ?? {}),
    ...Object.keys(before.picture?.alt ?? {}),
    ...Object.keys(draft.picture?.alt ?? {}),
  ]);
  return [...languages].filter(
    (language) => textsIn(before, language) !== textsIn(draft, language),
  );
}

/** A served funnel as the content preview takes its route: id, flow, plans, content variants. */
function previewRoute(id: string, shape: FunnelShape): ContentPreviewRoute {
  return {
    id,
    flow: shape.flow,
    plans: shape.plans,
    upsellPlans: shape.upsellPlans,
    guidePlans: shape.guidePlans,
    ...(shape.content && Object.keys(shape.content).length > 0 ? { content: shape.content } : {}),
  };
}

/** The arms each running or paused experiment shows a route's visitors, its control's first. */
function armsOn(config: ServedConfig, route: string): Arm[] {
  const compiled = compiledExperiments(
    config.experiments,
    config.split,
    config.routing,
    config.content,
  );
  const arms: Arm[] = [null];
  for (const experiment of compiled.byId.values()) {
    if (experiment.status !== 'running' && experiment.status !== 'paused') continue;
    if (experiment.routes !== null && !experiment.routes.has(route)) continue;
    for (const variant of experiment.changes.keys()) {
      if (variant !== experiment.control) arms.push({ experiment: experiment.id, variant });
    }
  }
  return arms;
}

/**
 * The funnel `config` serves the visitors of route `id` (in `arm`, if it runs there; else as
 * everyone on the route), or of `fallback` when `config` has no such route. `arm` is kept as a
 * preview keeps a marketer's chosen arm (armsProblem), so it applies whatever the audience.
 */
function servedShape(
  config: ServedConfig,
  id: string,
  arm: Arm,
  fallback: RoutingDocument['routes'][number],
  now: number,
): FunnelShape {
  const route = config.routing.routes.find((each) => each.id === id) ?? fallback;
  const chosen = new Map(arm ? [[arm.experiment, arm.variant]] : []);
  // An arm the config does not run (a test the publish starts) leaves its visitors on the route's own.
  const arms = armsProblem(config, chosen) === null ? chosen : new Map<string, string>();
  const visitor = { route: chosenRouteOf(route), facts: NO_FACTS, now, draw: null, arms };
  return visitorGets(config, visitor).shape;
}

/** Whether the content preview can draw the screen (one made of sections). */
const drawable = (content: ContentDocument, screen: string) => {
  const inCode = screenOfRef(content, screen);
  return inCode !== null && COMPOSED_SCREENS[inCode] !== undefined;
};

/** The change of `screen` between two served funnels, or null when its visitors see none. */
function changeOf(
  live: ServedConfig,
  draft: ServedConfig,
  screen: string,
  sides: { live: ContentPreviewRoute; draft: ContentPreviewRoute },
): Omit<ScreenChange, 'routes' | 'arm'> | null {
  const liveVariant = shownVariant(live.content, screen, sides.live.content?.[screenKey(screen)]);
  const draftVariant = shownVariant(
    draft.content,
    screen,
    sides.draft.content?.[screenKey(screen)],
  );
  const before = drawnOf(live.content, screen, liveVariant);
  const after = drawnOf(draft.content, screen, draftVariant);
  if (after === null || sameJson(before, after)) return null;
  return {
    screen,
    live: before === null ? null : { variant: liveVariant, route: sides.live },
    draft: { variant: draftVariant, route: sides.draft },
    languages: changedLanguages(before?.body ?? null, after.body),
  };
}

/** A screen id as a content choice names it. */
const screenKey = (screen: string) => screen as keyof ContentChoices;

/** Every change the routes' visitors see, in route order, then arm, then flow order. */
function routeChanges(live: ServedConfig, draft: ServedConfig, now: number): ScreenChange[] {
  const changes: ScreenChange[] = [];
  for (const route of draft.routing.routes) {
    for (const arm of armsOn(draft, route.id)) {
      const after = servedShape(draft, route.id, arm, route, now);
      const before = servedShape(live, route.id, arm, route, now);
      const sides = { live: previewRoute(route.id, before), draft: previewRoute(route.id, after) };
      for (const screen of new Set(after.screens)) {
        if (!drawable(draft.content, screen)) continue;
        const change = changeOf(live, draft, screen, sides);
        if (change) changes.push({ ...change, routes: [route.id], arm });
      }
    }
  }
  return changes;
}

/** The route `default` as the preview takes it, showing `variant` of `screen` (null: its own). */
function defaultRouteShowing(
  config: ServedConfig,
  screen: string,
  variant: string | null,
): ContentPreviewRoute {
  const route = chosenRouteOf(
    config.routing.routes.find((each) => each.id === DEFAULT_ROUTE_ID) ?? {
      id: DEFAULT_ROUTE_ID,
      flow: 'default',
    },
  );
  const { [screenKey(screen)]: _shown, ...others } = route.content ?? {};
  const content: ContentChoices = variant === null ? others : { ...others, [screen]: variant };
  return previewRoute(route.id, { ...route, screens: [], content });
}

/** The changes of screens and variants no route serves yet, drawn as `default` would show them. */
function unservedChanges(live: ServedConfig, draft: ServedConfig): ScreenChange[] {
  const screens = [
    ...Object.keys(draft.content.screens),
    ...Object.keys(draft.content.composed ?? {}),
  ];
  const changes: ScreenChange[] = [];
  for (const screen of screens.filter((each) => drawable(draft.content, each))) {
    const variants = Object.keys(contentOfRef(draft.content, screen)?.variants ?? {});
    for (const variant of [null, ...variants]) {
      const liveVariant = shownVariant(live.content, screen, variant ?? undefined);
      const sides = {
        live: defaultRouteShowing(live, screen, liveVariant),
        draft: defaultRouteShowing(draft, screen, variant),
      };
      const change = changeOf(live, draft, screen, sides);
      if (change) changes.push({ ...change, routes: [], arm: null });
    }
  }
  return changes;
}

/**
 * One change per screen and pair of variants shown, naming every route that shows it; the arm
 * only while every route's is the same one (else some visitors of each, not one arm's, see it).
 */
function merged(changes: readonly ScreenChange[]): ScreenChange[] {
  const byKey = new Map<string, ScreenChange>();
  for (const change of changes) {
    const key = JSON.stringify([change.screen, change.live?.variant, change.draft.variant]);
    const known = byKey.get(key);
    if (!known) {
      byKey.set(key, { ...change, routes: [...change.routes] });
      continue;
    }
    if (!sameJson(known.arm, change.arm)) known.arm = null;
    for (const route of change.routes) if (!known.routes.includes(route)) known.routes.push(route);
  }
  return [...byKey.values()];
}

/** Each screen a publish of `draft` over `live` changes for someone (see the top of the file). */
export function screenChanges(
  live: ServedConfig,
  draft: ServedConfig,
  now: number,
): ScreenChange[] {
  const served = merged(routeChanges(live, draft, now));
  const shown = new Set(served.map((change) => `${change.screen}|${change.draft.variant}`));
  const unserved = unservedChanges(live, draft).filter(
    (change) => !shown.has(`${change.screen}|${change.draft.variant}`),
  );
  return [...served, ...merged(unserved)];
}
