import type { Handler } from 'hono';
import * as z from 'zod';
import type { ContentDocument } from '../../shared/config/content';
import type { RoutingDocument } from '../../shared/config/routing';
import { CONSOLE_PREVIEW_PATH, type ConfigDocument } from '../../shared/console-api/config';
import { linkUrlOf, routeTestRequest } from '../../shared/console-api/request-schemas';
import type { RouteTestAnswer } from '../../shared/console-api/routes';
import { CLICK_ID_PARAMS, type CLICK_ID_VALUES } from '../../shared/routing';
import { parseFullDocument } from '../config/document';
import { honoursPreviewCountry } from '../environment';
import { type ServedConfig, skipsSplit, visitorGets } from '../experiments/config/visitor-gets';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import {
  fitsPreviewCookie,
  PREVIEW_TTL_SECONDS,
  previewKey,
  signRouteLink,
} from '../preview/preview';
import type { ConsoleEnv } from '../request/envs';
import type { FirstTouch } from '../routing/first-touch';
import { compiledRouting, compileRouting, explainRoute } from '../routing/router';
import { describedFacts } from './described-visitor';
import { invalidDocument, previewedRouteFor, servedAnswer } from './visitor-gets-route';

/**
 * The console's "test a visitor" (POST CONSOLE_API.routeTest): which route a visitor opening an
 * ad link would get, why each route before it did not take them, and a preview link of that
 * route's funnel. It runs the edge's own code on the link (takeFirstTouch, visitorFacts,
 * explainRoute, and visitorGets for the arms and the funnel it serves there), so what the console
 * says is what a visitor gets; only what the edge reads from the request (country, platform, app)
 * is told instead. Against a draft it resolves the draft whole (its new routes, flows and
 * composed screens), and answers the route as a preview takes it (`previewRoute`), so the
 * console can draw the landing from the draft's content (worker/console/content-route.ts).
 * Writes nothing.
 */

/**
 * The body as the OpenAPI document gives it (shared/console-api/request-schemas.ts), but for the
 * whole draft (routing, flows, content, experiments), as "what does this visitor get" takes it:
 * the config's own rules check it whole and answer with each field's path; absent, the live
 * config.
 */
const requestSchema = routeTestRequest.extend({ document: z.unknown().optional() });

/** What the test resolves a visitor against: the live config, or the draft sent. */
type TestedConfig = ServedConfig & { content: ContentDocument };

/** What a test visitor's click id is when the marketer picks one: a made-up id of that form. */
const TEST_CLICK_ID = 'console-test';

/**
 * The link with the click id the marketer picked instead of its own (none: without any), so the
 * edge's own code reads it as it would that ad's click, and the preview opens that link.
 */
function withClickId(link: URL, clickId: (typeof CLICK_ID_VALUES)[number] | undefined): URL {
  if (clickId === undefined) return link;
  // The other parameters stay exactly as pasted: re-encoding them could mend what the edge
  // would refuse (touchParams).
  const clickParams: string[] = Object.values(CLICK_ID_PARAMS).flat();
  const kept = link.search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && !clickParams.includes(pair.split('=')[0] ?? ''));
  if (clickId !== 'none') kept.push(`${CLICK_ID_PARAMS[clickId][0]}=${TEST_CLICK_ID}`);
  const url = new URL(link);
  url.search = kept.join('&');
  return url;
}

/**
 * One line of what the link's first touch reads: "tiktok · click id tiktok · utm_campaign=bf24 ·
 * entry bf".
 */
function touchText(touch: FirstTouch): string {
  const utm = Object.entries(touch.utm)
    .filter(([, value]) => value !== null)
    .map(([field, value]) => `utm_${field}=${value}`);
  return [
    touch.source,
    touch.click_id ? `click id ${touch.click_id}` : 'no click id',
    ...utm,
    ...(touch.entry ? [`entry ${touch.entry}`] : []),
  ].join(' · ');
}

export function routeTest(now: () => number): Handler<ConsoleEnv> {
  return async function routeTestHandler(c) {
    const parsed = requestSchema.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const request = parsed.data;
    let served: TestedConfig = c.get('config');
    let routing: RoutingDocument = served.routing;
    let compiled = compiledRouting(routing);
    if (request.document !== undefined) {
      const draft = parseFullDocument(request.document);
      if (!draft.ok) return invalidDocument(c, draft.errors);
      served = draft.values as ConfigDocument as TestedConfig;
      routing = served.routing;
      compiled = compileRouting(routing);
    }
    const at = request.at === undefined ? now() : Date.parse(request.at);
    const link = withClickId(linkUrlOf(request.link) as URL, request.clickId);
    const { touch, facts } = describedFacts({ ...request, link }, routing, at);
    const { route, passed } = explainRoute(compiled, facts, at);
    // What the visitor gets there: the live experiments (their rolled-out winners, each running
    // one's control) on the routing tested, as the preview link then shows it.
    const config = { ...served, routing };
    const controls = skipsSplit(link);
    const gets = visitorGets(config, { route, facts, now: at, draw: null, controls });
    const key = previewKey(c.env);
    let preview = '';
    let previewTooLarge = false;
    // A link, not the cookie: the marketer may open it in any browser, on a phone say; the
    // cookie it then sets is bound to that browser (worker/console/preview-route.ts).
    const previewed = previewedRouteFor(gets);
    const token =
      key === null
        ? null
        : await signRouteLink(key, previewed, Math.floor(now() / 1000) + PREVIEW_TTL_SECONDS);
    if (token !== null && !fitsPreviewCookie(token)) previewTooLarge = true;
    else if (token !== null) {
      const query = new URLSearchParams(link.search);
      query.delete('route');
      query.set('route', token);
      // Outside production the preview's pages see the tested country too (its currency, its
      // phone numbers), as they would see it on that visitor's phone (worker/request/visit-facts.ts).
      query.delete('country');
      if (request.country !== null && honoursPreviewCountry(c.env)) {
        query.set('country', request.country);
      }
      preview = `${CONSOLE_PREVIEW_PATH}?${query}`;
    }
    const answer: RouteTestAnswer = {
      route: route.id,
      flow: route.flow,
      plans: copyOf(route.plans),
      upsellPlans: copyOf(route.upsellPlans),
      guidePlans: copyOf(route.guidePlans),
      passed,
      source: touchText(touch),
      preview,
      ...(previewTooLarge ? { previewTooLarge } : {}),
      gets: servedAnswer(config, gets, {}),
      previewRoute: previewed,
    };
    return c.json(answer);
  };
}

/** A plan list as JSON carries it: a copy, or null for the screens' own. */
function copyOf(plans: readonly string[] | null): string[] | null {
  return plans ? [...plans] : null;
}
