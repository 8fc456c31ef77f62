import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Condition, RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import type { AppOptions } from '../../../worker/app';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { ROUTE_COOKIE } from '../../../worker/request/cookies';
import { keptRoute } from '../../fixtures/signed-cookies';
import { freshApp, putConfig, setCookies } from '../fetch-app';

/**
 * Routing through the real app: a routing document in KV, a page request, and the route the
 * visitor was given, read from the `gf_route` cookie the route middleware sets.
 */

/** Wednesday 2026-11-25, 22:30 UTC: Thursday 07:30 in Tokyo, 17:30 in New York. */
export const NOW = Date.UTC(2026, 10, 25, 22, 30);

/** The route an audience of these groups takes; everyone else gets 'default'. */
export const PROBE = 'probe';

/** A flow other than the default's, so a page shows which one a visitor walks. */
const PROBE_FLOW = 'lp17ch17pr5';

export function probeRouting(
  groups: Condition[][],
  extra: Partial<RouteDocument> = {},
  document: Partial<RoutingDocument> = {},
): RoutingDocument {
  return {
    version: 'test',
    audiences: { probe: { groups } },
    routes: [
      { id: PROBE, audience: 'probe', flow: PROBE_FLOW, ...extra },
      { id: 'default', flow: 'default' },
    ],
    ...document,
  };
}

export type FetchApp = ReturnType<typeof freshApp>;

/**
 * An app routing with `routing` at NOW (unless `options.now` says otherwise), a fixed draw (0.5),
 * over the split and flows in KV, else the defaults in code.
 */
export async function routingApp(
  routing: RoutingDocument,
  options: AppOptions = {},
): Promise<FetchApp> {
  await putConfig('routing', routing);
  // A missing key is an error line on every request; a test that sets its own keeps it.
  if ((await env.FUNNEL_CONFIG.get('split')) === null) await putConfig('split', DEFAULT_SPLIT);
  if ((await env.FUNNEL_CONFIG.get('flows')) === null) await putConfig('flows', DEFAULT_FLOWS);
  return freshApp({ now: () => NOW, random: () => 0.5, ...options });
}

/**
 * Takes the test's config out of KV. Not reset(), which also drops the tables the migrations
 * made for the file (exposures among them), so later pages would log failed writes.
 */
export async function forgetConfig(): Promise<void> {
  await Promise.all(['split', 'flows', 'routing'].map((key) => env.FUNNEL_CONFIG.delete(key)));
}

/** The route a first page request is given; the page must answer 200 whatever it carried. */
export async function routeOf(
  fetchApp: FetchApp,
  path: string,
  init: RequestInit = {},
): Promise<string | undefined> {
  const response = await fetchApp(path, init);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return keptRoute(setCookies(response).get(ROUTE_COOKIE));
}

/** The page's h1, which differs between the default flow's landing and the probe flow's. */
export function heading(html: string): string | undefined {
  return html.match(/<h1 id="screen-title">([^<]+)<\/h1>/)?.[1];
}
