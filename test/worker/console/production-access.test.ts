import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONSOLE_ALERTS_ACKNOWLEDGE_PATH,
  CONSOLE_ALERTS_PATH,
  CONSOLE_GUARDRAILS_CHECK_PATH,
} from '../../../shared/console-api/alerts';
import { CONSOLE_API, CONSOLE_PREVIEW_PATH } from '../../../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../../../shared/console-api/content';
import { CONSOLE_COPY_API } from '../../../shared/console-api/copy';
import { CONSOLE_DRAFT_API } from '../../../shared/console-api/draft';
import { CONSOLE_EXPERIMENTS_PATH } from '../../../shared/console-api/experiment-results';
import { CONSOLE_REMINDERS_PATH } from '../../../shared/console-api/reminders';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import { CONSOLE_SIMULATE_PATH } from '../../../shared/console-api/simulation';
import { ACCESS_TOKEN_HEADER, accessKeySets } from '../../../worker/access/console-access';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../../worker/config/defaults';
import { ORIGIN, productionApp } from '../fetch-app';
import { accessClaims, NOW_MS, PRODUCTION, type Signer, teamAndStranger } from './access-tokens';

/**
 * The console as the production entry assembles it (worker/index.ts: createApp() without the
 * development kit), not a stand-in app: every console path, page, reads, writes and preview
 * links, is refused to a request Access did not vouch for, and nothing is written.
 */

let team: Signer;
let stranger: Signer;

beforeAll(async () => {
  ({ team, stranger } = await teamAndStranger());
});
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** A publishable document: were a write let through, KV and the history would change. */
const DOCUMENT = {
  split: { ...DEFAULT_SPLIT, version: 'draft' },
  flows: { ...DEFAULT_FLOWS, version: 'draft' },
  routing: { ...DEFAULT_ROUTING, version: 'draft' },
  experiments: { ...DEFAULT_EXPERIMENTS, version: 'draft' },
};

/** A publishable copy change: were it let through, the manifest and the copy history would change. */
const COPY = { es: { 'screens.one_pager.title': 'Sin Access' } };

const SAME_ORIGIN_JSON = {
  'Sec-Fetch-Site': 'same-origin',
  Origin: ORIGIN,
  'Content-Type': 'application/json',
};

/** Every route the console serves (worker/console/routes.ts), with a body a write would take. */
const CONSOLE_REQUESTS: [string, string, unknown?][] = [
  ['GET', '/console'],
  ['GET', '/console/experiments/price-us'],
  ['GET', CONSOLE_API.state],
  ['GET', CONSOLE_API.versions],
  ['GET', CONSOLE_RESULTS_PATH],
  ['GET', CONSOLE_REMINDERS_PATH],
  ['GET', CONSOLE_API.routeVisits],
  ['GET', `${CONSOLE_EXPERIMENTS_PATH}/split/results`],
  ['POST', CONSOLE_API.check, { base: null, document: DOCUMENT }],
  ['POST', CONSOLE_API.publish, { base: null, document: DOCUMENT, note: 'around Access' }],
  ['POST', CONSOLE_API.rollback, { base: null, seq: 1 }],
  ['GET', CONSOLE_DRAFT_API.draft],
  ['PUT', CONSOLE_DRAFT_API.draft, { revision: 0, base: null, document: DOCUMENT }],
  ['POST', CONSOLE_DRAFT_API.review, { revision: 1, note: 'around Access' }],
  ['POST', CONSOLE_DRAFT_API.approve, { revision: 1 }],
  ['GET', CONSOLE_COPY_API.state],
  ['GET', CONSOLE_COPY_API.versions],
  ['POST', CONSOLE_COPY_API.check, { base: null, copy: COPY }],
  ['POST', CONSOLE_COPY_API.publish, { base: null, copy: COPY, note: 'around Access' }],
  ['POST', CONSOLE_COPY_API.rollback, { base: null, seq: 1 }],
  ['POST', CONSOLE_COPY_API.preview, { copy: COPY }],
  ['GET', CONSOLE_CONTENT_API.catalogue],
  [
    'POST',
    CONSOLE_CONTENT_API.preview,
    { screen: 'one_pager', language: 'en', theme: 'geozilla', content: { screens: {} } },
  ],
  ['GET', `${CONSOLE_PREVIEW_PATH}/default`],
  ['GET', `${CONSOLE_PREVIEW_PATH}?end=1`],
  ['GET', CONSOLE_ALERTS_PATH],
  ['POST', CONSOLE_ALERTS_ACKNOWLEDGE_PATH, { key: 'split|1|srm' }],
  ['POST', CONSOLE_GUARDRAILS_CHECK_PATH, {}],
  ['POST', `${CONSOLE_SIMULATE_PATH}/start`, { experiment: null, reset: false }],
];

/** The production app over the team's certs (served by the test), with `bindings`. */
function console_(bindings: Record<string, string>) {
  const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
  const fetchApp = productionApp(
    { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
    // A preview key, so a preview link let through would set its cookie.
    { ...bindings, CONSOLE_PREVIEW_KEY: 'preview-key-of-this-test' },
  );
  return (method: string, path: string, body: unknown, token?: string) =>
    fetchApp(path, {
      method,
      headers: {
        ...(method === 'GET' ? {} : SAME_ORIGIN_JSON),
        ...(token === undefined ? {} : { [ACCESS_TOKEN_HEADER]: token }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** KV's two keys and the history's size, to show nothing was written. */
async function stored() {
  return {
    split: await env.FUNNEL_CONFIG.get('split', 'text'),
    flows: await env.FUNNEL_CONFIG.get('flows', 'text'),
    versions: await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM config_versions').first('n'),
    manifest: await env.FUNNEL_CONFIG.get('translations:manifest', 'text'),
    copyVersions: await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM copy_versions').first('n'),
    drafts: await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM console_draft_revisions').first(
      'n',
    ),
  };
}

describe('the production app refuses every console path', () => {
  it.each([
    [
      'without the Access settings',
      { ENVIRONMENT: 'production' },
      undefined,
      503,
      'console_not_configured',
    ],
    ['without the Access header', PRODUCTION, undefined, 401, 'access_token_missing'],
    ['to a forged token', PRODUCTION, 'forged', 403, 'access_token_invalid'],
  ])('%s', async (_, bindings, token, status, error) => {
    const open = console_(bindings);
    const sent = token === 'forged' ? await stranger.sign(accessClaims()) : undefined;
    const before = await stored();
    for (const [method, path, body] of CONSOLE_REQUESTS) {
      const response = await open(method, path, body, sent);
      expect({ method, path, status: response.status }).toEqual({ method, path, status });
      expect(await response.json()).toEqual({ ok: false, error });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.getSetCookie().filter((c) => c.startsWith('gf_preview'))).toEqual([]);
    }
    expect(await stored()).toEqual(before);
  });

  it("opens to the team's token, so the refusals above are Access's", async () => {
    const open = console_(PRODUCTION);
    const token = await team.sign(accessClaims());
    const page = await open('GET', '/console', undefined, token);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const state = await open('GET', CONSOLE_API.state, undefined, token);
    const opened = (await state.json()) as Record<string, unknown>;
    expect(opened).toMatchObject({ author: 'ada@example.com' });
    // The guardrails' check on demand is not a production console's: the cron alone runs it.
    expect(opened.rehearsal).toBeUndefined();
    const check = await open('POST', CONSOLE_GUARDRAILS_CHECK_PATH, {}, token);
    expect(check.status).toBe(404);
    expect(await check.json()).toEqual({ ok: false, error: 'unknown_route' });
    // Nor is test traffic: production's app has no simulator to write made-up results with.
    expect(opened.simulation).toBeUndefined();
    const simulate = await open('POST', `${CONSOLE_SIMULATE_PATH}/start`, {}, token);
    expect(simulate.status).toBe(404);
  });
});
