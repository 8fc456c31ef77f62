import { type Handler, Hono, type MiddlewareHandler } from 'hono';
import * as z from 'zod';
import {
  CONSOLE_ALERTS_PATH,
  CONSOLE_GUARDRAILS_CHECK_PATH,
} from '../../shared/console-api/alerts';
import {
  type CheckAnswer,
  CONSOLE_API,
  CONSOLE_PREVIEW_PATH,
  type ConsoleState,
  type PublishAnswer,
  type ScreenChoice,
} from '../../shared/console-api/config';
import { CONSOLE_CONTENT_PATH } from '../../shared/console-api/content';
import { CONSOLE_COPY_API } from '../../shared/console-api/copy';
import { CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import { CONSOLE_EXPERIMENTS_PATH } from '../../shared/console-api/experiment-results';
import { CONSOLE_FUNNEL_PATH } from '../../shared/console-api/funnel';
import { CONSOLE_OPENAPI_PATH } from '../../shared/console-api/openapi';
import { consolePageOf } from '../../shared/console-api/pages';
import { CONSOLE_PICTURES_PATH } from '../../shared/console-api/pictures';
import { CONSOLE_REMINDERS_PATH } from '../../shared/console-api/reminders';
import { publishRequest, rollbackRequest } from '../../shared/console-api/request-schemas';
import { CONSOLE_RESULTS_PATH } from '../../shared/console-api/results';
import { CONSOLE_SIMULATE_PATH } from '../../shared/console-api/simulation';
import { CONSOLE_TOKENS_API } from '../../shared/console-api/tokens';
import type { VersionsAnswer } from '../../shared/console-api/versions';
import { SCREEN_IDS } from '../../shared/screens';
import { chooseDevelopmentAuthor } from '../access/console-access';
import { publishStoresOf } from '../alerts/break-glass';
import { approvalIsRequired } from '../config/approval';
import { diffDocuments } from '../config/diff';
import { inEffectFromKv } from '../config/document';
import { restartDraft, reviewNoteOf } from '../config/draft-publish';
import { CONFIG_KEYS } from '../config/load';
import {
  liveInEffect,
  type PublishStores,
  previewPublish,
  publish,
  rollback,
} from '../config/publish';
import { summaryOf } from '../config/versions';
import type { Bindings } from '../env';
import { rehearsesGuardrails } from '../environment';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import { pictureSizes } from '../pictures/library';
import { pictureLibraryRoutes } from '../pictures/library-routes';
import type { RateRule } from '../rate-limits/rate-limiter';
import { guardConsole } from '../request/console-guard';
import type { AppEnv, ConsoleEnv } from '../request/envs';
import type { Simulator } from '../simulation/simulator';
import { adCostsRoutes } from './ad-costs-route';
import { alertsRoutes } from './alerts-route';
import { writesPerAuthor } from './author-writes';
import { contentRoutes, type RenderApp } from './content-route';
import { copyRoutes } from './copy-route';
import { draftRoutes } from './draft-route';
import { experimentResultsRoutes } from './experiment-results-route';
import { funnelRoutes } from './funnel-route';
import { checkGuardrailsNow } from './guardrails-route';
import { consolePage } from './page';
import { previewRoutes } from './preview-route';
import { clearanceOf, noteOf, refusedAnswer } from './publish-request';
import { rampMoveRoute } from './ramp-move-route';
import { remindersRoutes } from './reminders-route';
import { resultsRoutes } from './results-route';
import { routeTest } from './route-test';
import { routeVisitsRoutes } from './route-visits-route';
import { screenChanges } from './screen-changes';
import { tokensRoutes } from './tokens-route';
import { visitorGetsRoute } from './visitor-gets-route';

/**
 * The marketers' console's JSON calls (shared/console-api/): what is live, the review of an
 * edit, publish, rollback and the history. Every call passes the Access check first
 * (worker/access/console-access.ts); writes must come from the console's own page, as `/api`'s do.
 */

/** How many versions the history shows (and the console loads at once). */
const HISTORY_LIMIT = 200;

export interface ConsoleOptions {
  now?: () => number;
  /**
   * Puts the live funnel config on the context (the sub-app's funnelConfig): run before the
   * handlers that read it, and only those.
   */
  liveConfig: MiddlewareHandler<AppEnv>;
  /** The whole app, which draws a content preview's page (./content-route.ts). */
  render?: RenderApp;
  /**
   * The simulator of an entry that has one (worker/simulation/simulator.ts: the development and
   * staging entries, never production's): the console's Send test traffic, where the guardrails
   * are rehearsed (development and staging).
   */
  simulator?: Simulator;
}

/** Without the app (a test mounting the console alone), no page can be drawn. */
const NO_PAGES: RenderApp = () => new Response(null, { status: 404 });

const storesOf = publishStoresOf;

/**
 * The stores, with the picture library's sizes that a content document's pictures must match:
 * the library first, then the config's stores, which then do the rest of the publish.
 */
async function checkingStoresOf(env: Bindings): Promise<PublishStores> {
  const pictures = env.PICTURES ? await pictureSizes(env.PICTURES) : undefined;
  const stores = storesOf(env);
  if (!pictures) return stores;
  return { ...stores, rules: { ...stores.rules, pictures } };
}

/** The screens a flow may list, each with the kind the console groups and colours it by. */
const SCREEN_CHOICES: ScreenChoice[] = SCREEN_IDS.map((id) => ({ id, kind: screenKind(id) }));

function screenKind(id: string): string {
  if (id.startsWith('one_pager')) return 'landing';
  if (id.startsWith('searching')) return 'searching';
  if (id.startsWith('signup') || id === 'auto-signup') return 'signup';
  if (id.startsWith('checkout')) return 'checkout';
  if (id.startsWith('paycheck')) return 'paywall';
  if (id.startsWith('upsell')) return 'upsell';
  if (id === 'success' || id === 'payment_declined') return 'end';
  return 'other';
}

/**
 * Calls to the simulator's console door per author: a run of the console's largest (20,000
 * visitors) is a start and 20 batches, so six such runs an hour, about 120,000 simulated
 * visitors, enough to rehearse a rollback several times. Past it, 429 and nothing written: each
 * batch writes a thousand visitors however often it is sent.
 */
export const SIMULATION_CALLS_PER_AUTHOR: RateRule & { name: string } = {
  name: 'console_simulation_per_author',
  limit: 126,
  windowMs: 60 * 60_000,
};

/**
 * Send test traffic (POST CONSOLE_SIMULATE_PATH/start and /batch, shared/console-api/simulation.ts):
 * the entry's simulator, behind the console's Access check and write guards like every console
 * call, and only where the guardrails are rehearsed (development and staging): simulated
 * visitors' rows in a store real visitors use are made-up results, so production has no
 * simulator and this answers 404 anywhere else. No console token may call it
 * (worker/access/token-scopes.ts).
 */
function simulate(simulator: Simulator): Handler<ConsoleEnv> {
  return async function simulateHandler(c) {
    const step = c.req.param('step');
    if (!rehearsesGuardrails(c.env) || (step !== 'start' && step !== 'batch'))
      return consoleError(c, 404, 'bad_request');
    const body = await readJsonBody(c.req.raw);
    if (body === undefined) return consoleError(c, 400, 'bad_request');
    c.get('logFields').simulation = step;
    return simulator(step, body, c.env);
  };
}

/** A console path as its sub-app sees it, mounted at /console. */
const path = (full: string) => full.slice('/console'.length);

/**
 * The numbers the console reads, each from its own store: the results, the route visits, the
 * funnel by campaign with the ad costs it is set against, the reminders.
 */
function mountReports(app: Hono<ConsoleEnv>, now: () => number): void {
  app.route(path(CONSOLE_RESULTS_PATH), resultsRoutes());
  app.route(path(CONSOLE_EXPERIMENTS_PATH), experimentResultsRoutes({ now }));
  app.route(path(CONSOLE_API.routeVisits), routeVisitsRoutes({ now }));
  app.route(path(CONSOLE_FUNNEL_PATH), funnelRoutes());
  // What the ads cost, for the funnel report: imported as a file or by a tool's call.
  app.route(path(CONSOLE_API.adCosts), adCostsRoutes({ now }));
  // The renewal reminders the cron will ask for: read from the ledger's shards, no config.
  app.route(path(CONSOLE_REMINDERS_PATH), remindersRoutes({ now }));
}

export function consoleRoutes(options: ConsoleOptions) {
  const now = options.now ?? Date.now;
  const app = new Hono<ConsoleEnv>();
  guardConsole(app);
  // The handlers that read the live config (c.get('config')), each under its path.
  for (const readsConfig of [
    CONSOLE_API.routeTest,
    CONSOLE_API.visitorGets,
    CONSOLE_RESULTS_PATH,
    CONSOLE_EXPERIMENTS_PATH,
    CONSOLE_COPY_API.state,
    CONSOLE_CONTENT_PATH,
    CONSOLE_PREVIEW_PATH,
  ]) {
    app.use(`${path(readsConfig)}/*`, options.liveConfig);
  }

  app.get('/', chooseDevelopmentAuthor, consolePage);
  app.get(path(CONSOLE_API.state), stateRoute(options.simulator !== undefined));
  app.post(path(CONSOLE_API.check), checkEdit(now));
  app.post(path(CONSOLE_API.publish), publishEdit(now));
  app.post(path(CONSOLE_API.rollback), rollBack(now));
  app.post(path(CONSOLE_API.routeTest), routeTest(now));
  app.post(path(CONSOLE_API.visitorGets), visitorGetsRoute(now));

  // The shared draft, its review and approval (a publish checks the approval:
  // worker/config/draft-publish.ts).
  app.route(path(CONSOLE_DRAFT_API.draft), draftRoutes({ now }));
  mountReports(app, now);
  // Hold, resume or roll back a live ramp: published at once, as the CLI's ramp commands are.
  app.post(`${path(CONSOLE_EXPERIMENTS_PATH)}/:id/ramp`, rampMoveRoute(now, checkingStoresOf));
  app.route(path(CONSOLE_ALERTS_PATH), alertsRoutes({ now }));
  app.post(path(CONSOLE_GUARDRAILS_CHECK_PATH), checkGuardrailsNow(now));
  if (options.simulator)
    app.post(
      `${path(CONSOLE_SIMULATE_PATH)}/:step`,
      writesPerAuthor(SIMULATION_CALLS_PER_AUTHOR),
      simulate(options.simulator),
    );
  // The copy overrides: their own versions (c1, c2…), reviewed, published and rolled back here.
  app.route(path(CONSOLE_COPY_API.state), copyRoutes({ now }));
  // The content editor's sections and copy, and its previews of a draft content.
  app.route(path(CONSOLE_CONTENT_PATH), contentRoutes({ render: options.render ?? NO_PAGES, now }));

  // Behind the Access check like every console call: only marketers get a preview cookie.
  app.route(path(CONSOLE_PREVIEW_PATH), previewRoutes({ now }));

  // The picture library: files, not JSON, so beside the JSON calls with its own guards.
  app.route(path(CONSOLE_PICTURES_PATH), pictureLibraryRoutes({ now }));

  app.get(path(CONSOLE_API.versions), listVersions);

  // Console tokens for people's tools and agents: made and revoked by people only.
  app.route(path(CONSOLE_TOKENS_API.tokens), tokensRoutes({ now }));
  // What every call above takes, for those tools: written by the build into the static assets
  // (scripts/console-openapi.ts), read here behind the Access check.
  app.get(path(CONSOLE_OPENAPI_PATH), async (c) => {
    const file = await c.env.ASSETS?.fetch(new URL(CONSOLE_OPENAPI_PATH, c.req.url));
    // No build (a test app without assets): as a call this worker does not have.
    if (!file?.ok) return consoleError(c, 404, 'bad_request');
    return new Response(file.body, { headers: { 'Content-Type': 'application/json' } });
  });

  // A call this worker does not have (a console page newer than its worker): JSON like every
  // console answer, rather than falling through to the funnel, whose middleware would take the
  // marketer for a visitor and draw them a variant.
  app.all('/api/*', (c) => consoleError(c, 404, 'bad_request'));
  // Every other page of the console is the same shell, whose script draws the page its address
  // names (shared/console-api/pages.ts); any other path is no page, and falls to the sub-app's 404.
  app.get('/*', async (c, next) => (consolePageOf(c.req.path) ? consolePage(c, next) : next()));

  return app;
}

/**
 * What is live, the version it should be, and how KV drifted from it; and what the console may
 * rehearse here: the guardrails' check, and test traffic where the entry has a simulator.
 */
function stateRoute(simulates: boolean): Handler<ConsoleEnv> {
  return async function showState(c) {
    const stores = storesOf(c.env);
    const [head, split, flows, routing, experiments, content] = await Promise.all([
      stores.versions.head(),
      stores.live.read(CONFIG_KEYS.split),
      stores.live.read(CONFIG_KEYS.flows),
      stores.live.read(CONFIG_KEYS.routing),
      stores.live.read(CONFIG_KEYS.experiments),
      stores.live.read(CONFIG_KEYS.content),
    ]);
    const liveSplit = inEffectFromKv('split', split);
    const liveFlows = inEffectFromKv('flows', flows);
    const liveRouting = inEffectFromKv('routing', routing);
    const liveExperiments = inEffectFromKv('experiments', experiments);
    const liveContent = inEffectFromKv('content', content);
    // KV written around the history (wrangler kv, an old CLI), or a key absent or invalid. No
    // routing, experiments or content key is no drift: it is how a project starts
    // (worker/config/load.ts).
    const routingDrifted = routing !== null && routing !== head?.serialized.routing;
    const experimentsDrifted = experiments !== null && experiments !== head?.serialized.experiments;
    const contentDrifted = content !== null && content !== head?.serialized.content;
    const drift = [
      head !== null &&
      (split !== head.serialized.split ||
        flows !== head.serialized.flows ||
        routingDrifted ||
        experimentsDrifted ||
        contentDrifted)
        ? `KV no longer holds ${head.id}: it was written without the console or npm run config`
        : undefined,
      liveSplit.note,
      liveFlows.note,
      routing === null ? undefined : liveRouting.note,
      experiments === null ? undefined : liveExperiments.note,
      content === null ? undefined : liveContent.note,
    ].filter((note) => note !== undefined);
    const answer: ConsoleState = {
      author: c.get('consoleAuthor'),
      live: {
        split: liveSplit.value,
        flows: liveFlows.value,
        routing: liveRouting.value,
        experiments: liveExperiments.value,
        content: liveContent.value,
      } as ConsoleState['live'],
      head: head && summaryOf(head),
      drift: drift.length > 0 ? drift.join('; ') : null,
      screens: SCREEN_CHOICES,
      previews: Object.fromEntries(
        Object.keys(liveSplit.value.variants).map((key) => [
          key,
          `${CONSOLE_PREVIEW_PATH}/${encodeURIComponent(key)}`,
        ]),
      ),
      ...(rehearsesGuardrails(c.env) ? { rehearsal: true as const } : {}),
      ...(simulates && rehearsesGuardrails(c.env) ? { simulation: true as const } : {}),
    };
    return c.json(answer);
  };
}

/**
 * A publish's or check's body as the document gives it (shared/console-api/request-schemas.ts),
 * its document left to the config's own rules, which answer invalid_config with each field's path.
 */
const publishBody = publishRequest.extend({ document: z.unknown() });

/**
 * The review of an edit: its diff, phases and warnings, and the screens it changes for whom as
 * the edge would serve them (./screen-changes.ts), publishing nothing.
 */
function checkEdit(now: () => number): Handler<ConsoleEnv> {
  return async function checkEditHandler(c) {
    const parsed = publishBody.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const stores = await checkingStoresOf(c.env);
    const outcome = await previewPublish(stores, parsed.data.base, parsed.data.document);
    if (outcome.kind !== 'preview') return refusedAnswer(c, outcome);
    const live = await liveInEffect(stores.live);
    const screens = screenChanges(live, outcome.next, now());
    const answer: CheckAnswer = {
      ok: true,
      diff: outcome.diff,
      phase: outcome.phase,
      experimentPhases: outcome.experimentPhases,
      warnings: outcome.warnings,
      ...(outcome.languages.length > 0 ? { languages: outcome.languages } : {}),
      ...(screens.length > 0 ? { screens } : {}),
      approval: { required: approvalIsRequired(c.env.PUBLISH_APPROVAL), reasons: outcome.approval },
    };
    return c.json(answer);
  };
}

function publishEdit(now: () => number): Handler<ConsoleEnv> {
  return async function publishEditHandler(c) {
    const parsed = publishBody.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const body = parsed.data;
    const { base, draft: revision } = body;
    const stores = await checkingStoresOf(c.env);
    const author = c.get('consoleAuthor');
    const at = new Date(now());
    // Published without a note of its own: the one the review was asked with.
    const note = noteOf(body.note) || (await reviewNoteOf(c.env, revision, body.document));
    const outcome = await publish(stores, {
      base,
      document: body.document,
      author,
      note,
      source: 'console',
      clearance: clearanceOf(body, note),
      now: at,
    });
    if (outcome.kind !== 'published') return refusedAnswer(c, outcome);
    c.get('logFields').config_version = outcome.version.id;
    await restartDraft(c.env, revision, outcome, author, at);
    const answer: PublishAnswer = { ok: true, version: outcome.version };
    return c.json(answer);
  };
}

/**
 * Publishes an earlier version again. Where approval is required it is a break-glass (its note
 * the reason) or refused: the console then puts that version in the shared draft for review
 * (draft-route.ts restore).
 */
function rollBack(now: () => number): Handler<ConsoleEnv> {
  return async function rollBackHandler(c) {
    const parsed = rollbackRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const body = parsed.data;
    const request = { base: body.base, seq: body.seq, note: noteOf(body.note) };
    const author = c.get('consoleAuthor');
    const at = new Date(now());
    const outcome = await rollback(await checkingStoresOf(c.env), {
      ...request,
      author,
      clearance: clearanceOf(body, request.note),
      now: at,
    });
    if (outcome.kind === 'unknown_version') return consoleError(c, 404, 'unknown_version');
    if (outcome.kind !== 'published') return refusedAnswer(c, outcome);
    c.get('logFields').config_version = outcome.version.id;
    // Like a publish, a roll back from the shared draft starts it again from the new version.
    await restartDraft(c.env, body.draft, outcome, author, at);
    const answer: PublishAnswer = { ok: true, version: outcome.version };
    return c.json(answer);
  };
}

/** The history, newest first, each version with its diff from the one before. */
const listVersions: Handler<ConsoleEnv> = async function listVersions(c) {
  const stores = storesOf(c.env);
  // One more than shown, so the oldest shown still has its diff.
  const versions = await stores.versions.list(HISTORY_LIMIT + 1);
  const answer: VersionsAnswer = {
    versions: versions.slice(0, HISTORY_LIMIT).map((version, index) => ({
      ...summaryOf(version),
      diff: diffDocuments(versions[index + 1]?.document ?? null, version.document),
    })),
  };
  return c.json(answer);
};
