import type { Handler } from 'hono';
import * as z from 'zod';
import { screenOfRef } from '../../shared/composed-screens';
import type { ContentDocument } from '../../shared/config/content';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { InvalidAnswer } from '../../shared/console-api/errors';
import { linkUrlOf, visitorGetsRequest } from '../../shared/console-api/request-schemas';
import type { VisitorArm, VisitorGetsAnswer } from '../../shared/console-api/routes';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { parseFullDocument } from '../config/document';
import { experimentFromSplit } from '../experiments/config/migrate-split';
import {
  armSource,
  armsProblem,
  type DescribedVisitor,
  type ServedConfig,
  skipsSplit,
  type VisitorGets,
  visitorGets,
} from '../experiments/config/visitor-gets';
import { routesPassedOver } from '../experiments/holdout/holdout';
import { slotOfRef } from '../funnel/flow';
import type { Answer } from '../http/answer';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { PreviewedRoute } from '../preview/preview';
import type { ConsoleEnv } from '../request/envs';
import { chooseRoute, compiledRouting } from '../routing/router';
import { describedFacts } from './described-visitor';

/**
 * The console's "what does this visitor get" (POST CONSOLE_API.visitorGets): the route, the arm
 * of each experiment, the flow, each screen with its content variant, the plans and offer terms
 * the edge serves a described visitor, under the draft the console sends or the live config. It
 * runs the edge's own code (worker/experiments/config/visitor-gets.ts, the experiments
 * middleware's), so whatever the console states of a visitor's funnel is what a visitor gets.
 * Writes nothing, draws no one.
 */

/**
 * The body as the OpenAPI document gives it (shared/console-api/request-schemas.ts), but for its
 * draft, which the config's own rules check whole and answer with each field's path.
 */
const requestSchema = visitorGetsRequest.extend({ document: z.unknown().optional() });

/** What a config holds for the answer: the sections a funnel is made of, and the content. */
type AnsweringConfig = ServedConfig & { content: ContentDocument };

/**
 * The answer the console reads of `gets`: the funnel served, its screens as the content draws
 * them, and each arm with how the visitor came by it.
 */
export function servedAnswer(
  config: AnsweringConfig,
  gets: VisitorGets,
  visitor: Pick<DescribedVisitor, 'arms'>,
): VisitorGetsAnswer {
  const { shape } = gets;
  const screens = shape.screens.map((ref) => ({
    ref,
    screen: screenOfRef(config.content, ref),
    slot: slotOfRef(ref, config.content),
    variant: shape.content?.[ref] ?? null,
  }));
  const arms: VisitorArm[] = gets.assignments.map((assignment) => ({
    experiment: assignment.experiment,
    name: nameOf(config, assignment.experiment),
    layer: assignment.layer,
    variant: assignment.variant,
    source: armSource(gets, visitor, assignment),
  }));
  return {
    route: gets.route.id,
    flow: shape.flow,
    landing: screens[0] ?? null,
    screens,
    arms,
    plans: copyOf(shape.plans),
    upsellPlans: copyOf(shape.upsellPlans),
    guidePlans: copyOf(shape.guidePlans),
    currencies: shape.currencies ? { ...shape.currencies } : null,
    anchors: shape.anchors !== false,
    countdown: shape.countdown !== false,
  };
}

/** An experiment's name as the console shows it: the split's is "Split test". */
function nameOf(config: ServedConfig, experiment: string): string {
  if (experiment === SPLIT_EXPERIMENT_ID) return experimentFromSplit(config.split).name;
  return config.experiments.experiments[experiment]?.name ?? experiment;
}

/**
 * The route a preview of `gets` shows: the route whole, and the arms of the running and paused
 * experiments pinned, so the preview walks the arms the answer names whoever opens it (a
 * rolled-out winner follows from the config, and its audience from the preview's own visitor).
 */
export function previewedRouteFor(gets: VisitorGets): PreviewedRoute {
  const { route } = gets;
  const arms = gets.assignments.filter((assignment) => {
    const status = gets.compiled.byId.get(assignment.experiment)?.status;
    return status === 'running' || status === 'paused';
  });
  return {
    id: route.id,
    flow: route.flow,
    plans: copyOf(route.plans),
    upsellPlans: copyOf(route.upsellPlans),
    guidePlans: copyOf(route.guidePlans),
    ...(route.content ? { content: route.content } : {}),
    ...(route.currencies ? { currencies: route.currencies } : {}),
    ...(route.anchors === false ? { anchors: false } : {}),
    ...(route.countdown === false ? { countdown: false } : {}),
    ...(arms.length > 0
      ? { arms: Object.fromEntries(arms.map((arm) => [arm.experiment, arm.variant])) }
      : {}),
  };
}

/** A plan list as JSON carries it: a copy, or null for the screens' own. */
function copyOf(plans: readonly string[] | null): string[] | null {
  return plans ? [...plans] : null;
}

/** 400 `invalid_config`: the draft sent is refused, as a publish of it would be. */
export function invalidDocument(c: Answer, errors: InvalidAnswer['errors']) {
  c.get('logFields').error = 'invalid_config';
  const answer: InvalidAnswer = { ok: false, error: 'invalid_config', errors };
  return c.json(answer, 400);
}

export function visitorGetsRoute(now: () => number): Handler<ConsoleEnv> {
  return async function visitorGetsHandler(c) {
    const parsed = requestSchema.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const request = parsed.data;
    let config: AnsweringConfig = c.get('config');
    if (request.document !== undefined) {
      const draft = parseFullDocument(request.document);
      if (!draft.ok) return invalidDocument(c, draft.errors);
      config = draft.values as ConfigDocument as AnsweringConfig;
    }
    const at = request.at === undefined ? now() : Date.parse(request.at);
    const link = linkUrlOf(request.link ?? new URL('/', c.req.url).href) as URL;
    const { facts } = describedFacts({ ...request, link }, config.routing, at);
    const routing = compiledRouting(config.routing);
    const route =
      request.route === undefined
        ? chooseRoute(
            routing,
            facts,
            at,
            routesPassedOver(config, request.visitorId?.toLowerCase() ?? null, at),
          )
        : routing.byId.get(request.route);
    if (route === undefined) return consoleError(c, 404, 'unknown_route');
    const arms = new Map(Object.entries(request.arms ?? {}));
    if (armsProblem(config, arms) !== null) return consoleError(c, 404, 'unknown_experiment');
    const visitor: DescribedVisitor = {
      route,
      facts,
      now: at,
      draw:
        request.visitorId === undefined
          ? null
          : { visitorId: request.visitorId.toLowerCase(), pins: new Map(), account: null },
      arms,
      controls: skipsSplit(link),
    };
    return c.json(servedAnswer(config, visitorGets(config, visitor), visitor));
  };
}
