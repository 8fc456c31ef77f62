import type { Context } from 'hono';
import type { ExposureSegments } from '../experiments/store/every-experiment-statements';
import { platformOf } from '../routing/attributes';
import type { RootEnv } from './envs';

/** A segment level a visitor has no value for. */
const UNKNOWN = 'unknown';

/** At most this long: a level is counted per arm, and kept for good in the segment totals. */
const MAX_LEVEL_LENGTH = 64;

const level = (value: string | null | undefined): string =>
  value ? value.slice(0, MAX_LEVEL_LENGTH) : UNKNOWN;

/**
 * The segments an exposure is captured with, as the request shows them now: the country (the
 * request's, else the first touch's), the visit's source (the first touch's), and the platform,
 * in-app app and language as the router reads them (worker/routing/attributes.ts visitorFacts,
 * so a segment and an audience condition name the same levels), and the route.
 */
export function exposureSegments<E extends RootEnv>(c: Context<E>): ExposureSegments {
  const touch = c.get('firstTouch');
  return {
    country: level(c.get('country') ?? touch?.country),
    source: level(touch?.source),
    platform: level(platformOf(c.req.header('user-agent'), c.req.header('sec-ch-ua-platform'))),
    in_app: level(c.get('inApp')?.app ?? 'none'),
    language: level(c.get('language')),
    route: level(c.get('route')?.id),
  };
}
