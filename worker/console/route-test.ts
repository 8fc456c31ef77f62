import type { Handler } from 'hono';
import * as z from 'zod';
import type { RoutingDocument } from '../../shared/config/routing';
import { parseRouting } from '../../shared/config/routing';
import { CONSOLE_PREVIEW_PATH } from '../../shared/console-api/config';
import type { InvalidAnswer } from '../../shared/console-api/errors';
import type { RouteTestAnswer } from '../../shared/console-api/routes';
import type { InAppApp, InAppOs } from '../../shared/in-app-browser';
import {
  CLICK_ID_PARAMS,
  CLICK_ID_VALUES,
  COUNTRY_CODES,
  IN_APP_VALUES,
  PLATFORMS,
  type Platform,
  ROUTE_LANGUAGES,
} from '../../shared/routing';
import { honoursPreviewCountry } from '../environment';
import { PREVIEW_TTL_SECONDS, previewKey, signRouteLink } from '../funnel/preview';
import { consoleError } from '../http/console-errors';
import { readJsonBody } from '../http/json-body';
import type { ConsoleEnv } from '../middleware/envs';
import type { Answer } from '../middleware/visit';
import { visitorFacts } from '../routing/attributes';
import { DEFAULT_SOURCE_ALIASES, type FirstTouch, takeFirstTouch } from '../routing/first-touch';
import { compiledRouting, compileRouting, explainRoute } from '../routing/router';

/**
 * The console's "test a visitor" (POST CONSOLE_API.routeTest): which route a visitor opening an
 * ad link would get, why each route before it did not take them, and a preview link of that
 * route's funnel. It runs the edge's own code on the link (takeFirstTouch, visitorFacts,
 * explainRoute), so what the console says is what a visitor gets; only what the edge reads from
 * the request (country, platform, app) is told instead. Writes nothing.
 */

/** A pasted ad link: long tracking parameters, but not a page of text. */
const MAX_LINK_LENGTH = 4096;

/** The test runs at `at` (a UTC instant, like the routes' schedules) or now. */
const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)), 'is not a date');

const requestSchema = z.strictObject({
  link: z
    .string()
    .max(MAX_LINK_LENGTH)
    .refine((text) => urlOf(text) !== null, 'must be an http or https link'),
  country: z
    .string()
    .refine((code) => COUNTRY_CODES.includes(code), 'must be an ISO country code')
    .nullable(),
  platform: z.enum(PLATFORMS),
  app: z.enum(IN_APP_VALUES),
  language: z.enum(ROUTE_LANGUAGES).optional(),
  clickId: z.enum(CLICK_ID_VALUES).optional(),
  returning: z.boolean().optional(),
  routing: z.unknown().optional(),
  at: instant.optional(),
});

function urlOf(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * A typical browser's user agent on each platform: the router reads the platform and the browser
 * from the user agent (worker/routing/attributes.ts), so the test hands it one, as a visitor's
 * phone would. Safari on iOS and Chrome elsewhere, the browsers most visitors of each have.
 */
export const PLATFORM_USER_AGENTS: Record<Platform, string | undefined> = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  other: undefined,
};

const IN_APP_OS: Record<Platform, InAppOs> = {
  ios: 'ios',
  android: 'android',
  desktop: 'other',
  other: 'other',
};

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

function invalidRouting(c: Answer, issues: { path: string; message: string }[]) {
  c.get('logFields').error = 'invalid_config';
  const answer: InvalidAnswer = {
    ok: false,
    error: 'invalid_config',
    errors: issues.map((issue) => ({
      path: issue.path ? `routing.${issue.path}` : 'routing',
      message: issue.message,
    })),
  };
  return c.json(answer, 400);
}

export function routeTest(now: () => number): Handler<ConsoleEnv> {
  return async function routeTestHandler(c) {
    const parsed = requestSchema.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const request = parsed.data;
    let routing: RoutingDocument = c.get('config').routing;
    let compiled = compiledRouting(routing);
    if (request.routing !== undefined) {
      const draft = parseRouting(request.routing);
      if (!draft.ok) return invalidRouting(c, draft.issues ?? [{ path: '', message: draft.error }]);
      routing = draft.value;
      compiled = compileRouting(routing);
    }
    const at = request.at === undefined ? now() : Date.parse(request.at);
    const link = withClickId(urlOf(request.link) as URL, request.clickId);
    const touch = takeFirstTouch({
      url: link,
      // A pasted link has no page before it; a visitor from an ad has none either.
      referrer: null,
      country: request.country,
      now: at,
      aliases: routing.aliases
        ? { ...DEFAULT_SOURCE_ALIASES, ...routing.aliases }
        : DEFAULT_SOURCE_ALIASES,
    });
    const app = request.app === 'none' ? null : (request.app as InAppApp);
    const facts = visitorFacts({
      firstTouch: touch,
      language: request.language ?? 'en',
      userAgent: PLATFORM_USER_AGENTS[request.platform],
      platformHint: undefined,
      inApp: app === null ? null : { app, os: IN_APP_OS[request.platform] },
      returning: request.returning === true,
      // The hour and weekday rules read UTC: the console's schedules are in UTC too.
      timeZone: null,
      now: at,
    });
    const { route, passed } = explainRoute(compiled, facts, at);
    const key = previewKey(c.env);
    let preview = '';
    if (key !== null) {
      // A link, not the cookie: the marketer may open it in any browser, on a phone say; the
      // cookie it then sets is bound to that browser (worker/console/preview-route.ts).
      const token = await signRouteLink(
        key,
        {
          id: route.id,
          flow: route.flow,
          plans: copyOf(route.plans),
          upsellPlans: copyOf(route.upsellPlans),
          guidePlans: copyOf(route.guidePlans),
        },
        Math.floor(now() / 1000) + PREVIEW_TTL_SECONDS,
      );
      const query = new URLSearchParams(link.search);
      query.delete('route');
      query.set('route', token);
      // Outside production the preview's pages see the tested country too (its currency, its
      // phone numbers), as they would see it on that visitor's phone (worker/middleware/country.ts).
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
    };
    return c.json(answer);
  };
}

/** A plan list as JSON carries it: a copy, or null for the screens' own. */
function copyOf(plans: readonly string[] | null): string[] | null {
  return plans ? [...plans] : null;
}
