import type { RoutingDocument } from '../../shared/config/routing';
import type { InAppApp, InAppOs } from '../../shared/in-app-browser';
import type { IN_APP_VALUES, Platform, ROUTE_LANGUAGES } from '../../shared/routing';
import { visitorFacts } from '../routing/attributes';
import { DEFAULT_SOURCE_ALIASES, takeFirstTouch } from '../routing/first-touch';

/**
 * A visitor as the console describes one (its "test a visitor", worker/console/route-test.ts,
 * and "what does this visitor get", worker/console/visitor-gets-route.ts): the link they open,
 * their country, platform, app and language, read by the edge's own code into what its routes
 * and experiments' audiences read, as it reads a visitor's request.
 */

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

/** A visitor as the console describes one: the link they open, and what the edge reads of them. */
export interface Described {
  link: URL;
  country: string | null;
  platform: Platform;
  app?: (typeof IN_APP_VALUES)[number];
  language?: (typeof ROUTE_LANGUAGES)[number];
  returning?: boolean;
}

/**
 * What the edge's rules read of a described visitor at `at`: the link's first touch and the
 * facts the routes and the experiments' audiences read, by the edge's own code (takeFirstTouch,
 * visitorFacts) on the request the visitor's phone would make.
 */
export function describedFacts(visitor: Described, routing: RoutingDocument, at: number) {
  const touch = takeFirstTouch({
    url: visitor.link,
    // A pasted link has no page before it; a visitor from an ad has none either.
    referrer: null,
    country: visitor.country,
    now: at,
    aliases: routing.aliases
      ? { ...DEFAULT_SOURCE_ALIASES, ...routing.aliases }
      : DEFAULT_SOURCE_ALIASES,
  });
  const app =
    visitor.app === undefined || visitor.app === 'none' ? null : (visitor.app as InAppApp);
  const facts = visitorFacts({
    firstTouch: touch,
    language: visitor.language ?? 'en',
    userAgent: PLATFORM_USER_AGENTS[visitor.platform],
    platformHint: undefined,
    inApp: app === null ? null : { app, os: IN_APP_OS[visitor.platform] },
    returning: visitor.returning === true,
    // The hour and weekday rules read UTC: the console's schedules are in UTC too.
    timeZone: null,
    now: at,
  });
  return { touch, facts };
}
