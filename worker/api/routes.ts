import { type Handler, Hono, type MiddlewareHandler } from 'hono';
import { AREA_MAP_API_PATH } from '../../shared/api/area-map';
import { API_CALLS, type ApiCall, type ApiCallName } from '../../shared/api/contract';
import { GEOCODE_API_PATH } from '../../shared/api/geocode';
import {
  PROVIDER_SWITCH_PATH,
  PROVIDER_UNAVAILABLE_PATH,
} from '../../shared/api/payment-provider-paths';
import { RESUME_API_PATH } from '../../shared/api/resume-paths';
import { areaMapRoute } from '../area-map/area-map-route';
import { geocodeRoute } from '../geocode/geocode-route';
import { jsonBodyLimit, jsonOnly, refusal, refuse } from '../http/api-json';
import { providerSwitchRoute, providerUnavailableRoute } from '../provider-routing/provider-routes';
import type { ApiEnv } from '../request/envs';
import { readVisitFirst } from '../request/visit';
import { createResumeLink } from '../resume/create-link';
import { type ApiDependencies, callHandler } from './call-handler';
import { answerApiError } from './unhandled-error';

/**
 * Checks a mutating call passes before its handler: JSON only. Its origin was checked before
 * anything else by the sub-app (worker/sub-apps/browser-api.ts).
 */
function postGuards(): MiddlewareHandler<ApiEnv>[] {
  return [jsonOnly(), jsonBodyLimit()];
}

/**
 * What runs before a §7 call's handler: the call's visit read from the request
 * (worker/request/visit.ts), then a mutating call's body checked.
 */
function guardsOf(call: ApiCall): MiddlewareHandler<ApiEnv>[] {
  if (call.method !== 'POST') return [readVisitFirst()];
  return [readVisitFirst(), ...postGuards()];
}

/**
 * The worker's own calls beside the §7 table's: the resume link (worker/resume/), geocoding,
 * the located area's picture (worker/area-map/) and the card provider's health and switch
 * (worker/provider-health/).
 */
const RESUME_PATH = RESUME_API_PATH.slice('/api'.length);
const PROVIDER_UNAVAILABLE = PROVIDER_UNAVAILABLE_PATH.slice('/api'.length);
const PROVIDER_SWITCH = PROVIDER_SWITCH_PATH.slice('/api'.length);
const GEOCODE_PATH = GEOCODE_API_PATH.slice('/api'.length);
const AREA_MAP_PATH = AREA_MAP_API_PATH.slice('/api'.length);

/** What a path answers to any method but its own. */
function allowOnly(method: string): Handler<ApiEnv> {
  return function methodNotAllowed(c) {
    c.header('Allow', method);
    return refuse(c, refusal('method_not_allowed'));
  };
}

/**
 * The browser's backend (ARCHITECTURE.md): one route per row of the §7 table, at the portal's path
 * under `/api`. Built from the table so a new call is one row in shared/api/contract.ts.
 */
export function apiRoutes(deps: ApiDependencies): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  const calls = Object.entries(API_CALLS) as [ApiCallName, ApiCall][];
  for (const guard of postGuards()) api.post(RESUME_PATH, guard);
  api.post(RESUME_PATH, createResumeLink({ now: deps.now }));
  api.all(RESUME_PATH, allowOnly('POST'));
  const providerRoutes = [
    [PROVIDER_UNAVAILABLE, providerUnavailableRoute({ now: deps.now })],
    [PROVIDER_SWITCH, providerSwitchRoute()],
  ] as const;
  for (const [path, handler] of providerRoutes) {
    for (const guard of postGuards()) api.post(path, guard);
    api.post(path, handler);
    api.all(path, allowOnly('POST'));
  }
  api.get(GEOCODE_PATH, geocodeRoute());
  api.all(GEOCODE_PATH, allowOnly('GET'));
  api.get(AREA_MAP_PATH, areaMapRoute());
  api.all(AREA_MAP_PATH, allowOnly('GET'));
  for (const [name, call] of calls) {
    for (const guard of guardsOf(call)) api.on(call.method, call.path, guard);
    api.on(call.method, call.path, callHandler(name, deps));
  }
  for (const [, call] of calls) api.all(call.path, allowOnly(call.method));
  api.all('*', (c) => refuse(c, refusal('not_found')));
  api.onError((error, c) => answerApiError(error, c, { id: c.get('requestId'), path: c.req.path }));
  return api;
}
