import { type ErrorHandler, Hono } from 'hono';
import { CONSENT_PATH } from '../screens/layout/ConsentBar';
import type { ScreenDefinition } from '../screens/registry';
import { COLLECTOR_PATH } from '../shared/analytics/tracking';
import { LIFECYCLE_PATH, SUBSCRIBER_LINK_REQUEST_PATH } from '../shared/api/lifecycle';
import { RESUME_PAGE_PATH } from '../shared/api/resume-paths';
import { CONTRACT_PAGE_PATH } from '../shared/contract-page';
import { describeError, logError } from '../shared/log';
import { PICTURES_PATH } from '../shared/pictures';
import type { DrawnScreen } from '../shared/screens';
import { DEFAULT_THEME } from '../shared/theme';
import { type AccessKeys, accessCheck } from './access/console-access';
import type { ApiDependencies } from './api/call-handler';
import { answerApiError, isApiPath } from './api/unhandled-error';
import type { ChargeStepWatch } from './charge-pipeline/charge-pipeline';
import { firstFingerprint, stripeCardFingerprint } from './checkout/charge-call';
import type { IntakeLimits } from './collector/intake-limits';
import { createConfigSource } from './config/load';
import type { RenderApp } from './console/content-route';
import type { DevKit } from './dev-kit';
import type { RandomSource } from './funnel/flow';
import { requestBrand } from './funnel/locale';
import { shippedTranslator, shownLanguage } from './i18n';
import { requestLog } from './middleware/request-log';
import { securityHeaders } from './middleware/security-headers';
import { serverErrors } from './middleware/server-errors';
import { signedInUserCookies } from './middleware/signed-in-user';
import type { PortalFetch } from './portal-client/portal-call';
import { errorPage } from './render/render-page';
import type { RenderedScreens } from './render/rendered-screens';
import type { RootEnv } from './request/envs';
import { appLoginRoutes } from './routes/app-login';
import { consentRoutes } from './routes/consent';
import { notFoundPage } from './routes/screens';
import { vendorRoutes } from './routes/vendor';
import type { GoogleKeys } from './session/google-id-token';
import { googleKeySet } from './session/google-keys';
import type { Simulator } from './simulation/simulator';
import { browserApiApp } from './sub-apps/browser-api';
import { collectorApp } from './sub-apps/collector';
import { consoleApp } from './sub-apps/console';
import { contractApp } from './sub-apps/contract';
import { lifecycleApp } from './sub-apps/lifecycle';
import type { MiddlewareDeps } from './sub-apps/middleware-deps';
import { otherPagesApp } from './sub-apps/other-pages';
import { pagesApp } from './sub-apps/pages';
import { picturesApp } from './sub-apps/pictures';
import { resumeApp } from './sub-apps/resume';
import { subscriberApp } from './sub-apps/subscriber';
import { subscriberLinkRequestApp } from './sub-apps/subscriber-link-request';
import { vendorApp } from './sub-apps/vendor';
import { SUBSCRIBER_PAGE_PATH } from './subscriber-links/link-token';
import { createTranslationSource } from './translations/source';

export interface AppOptions {
  /**
   * The development kit (worker/dev-kit.ts): the embedded portal, the test gateway. Only the
   * development entry (worker/dev.ts) passes one; without it the app is the production worker.
   */
  devKit?: DevKit;
  /**
   * Stands in for the hash of the visitor id that places visitors in experiments (every layer's
   * bucket, coverage and variant pick, worker/experiments/assignment/assign.ts); tests fix it.
   */
  random?: RandomSource;
  /** Screen registry; tests swap in screens that fail on purpose. */
  screens?: Record<DrawnScreen, ScreenDefinition>;
  /**
   * Stands in for the portal (PORTAL_URL or the embedded emulator) behind `/api/*` and
   * `/app/login`; tests put a portal here that is down, slow or answers garbage. Wins over the
   * development kit's emulator.
   */
  portalFetch?: PortalFetch;
  /**
   * The least time the contract page's declaration answers in (worker/contract-page/); in
   * production 1 s unless set, elsewhere none. Tests set it to see it hold.
   */
  contractAnswerFloorMs?: number;
  /**
   * Google's signing keys; tests pass `googleKeySet({ fetch })` with keys they made, so no test
   * reaches the internet.
   */
  googleKeys?: GoogleKeys;
  /**
   * Told each step of the charge pipeline as a charge passes it (worker/charge-pipeline/), on
   * the checkout and the subscriber's page alike; tests spy on it.
   */
  watchCharge?: ChargeStepWatch;
  /**
   * Wall clock in milliseconds (Google token expiry, the collector's clock checks); Date.now
   * unless a test fixes it.
   */
  now?: () => number;
  /**
   * Screen bodies kept between requests (worker/render/rendered-screens.ts); null renders every
   * page for its request alone, as a test's reference.
   */
  renderedScreens?: RenderedScreens | null;
  /** Cloudflare Access's signing keys for the console; tests pass keys they made. */
  accessKeys?: AccessKeys;
  /** The collector's batch limits (worker/collector/intake-limits.ts); a test changes them. */
  collectorLimits?: IntakeLimits;
  /**
   * The simulator behind the console's Send test traffic (worker/simulation/simulator.ts): the
   * development and staging entries pass one, production's none, so its bundle has none.
   */
  simulator?: Simulator;
}

export function createApp(options: AppOptions = {}) {
  const app = new Hono<RootEnv>();
  const { devKit } = options;
  // The embedded portal's lifecycle events (portal/routes/subscriber.ts) come back to this app.
  const portalFetch = options.portalFetch ?? devKit?.portalFor(app.fetch);
  const deps: MiddlewareDeps = {
    configSource: createConfigSource(),
    access: accessCheck({ keys: options.accessKeys, now: options.now ?? Date.now }),
    translationSource: createTranslationSource(),
    now: options.now,
    random: options.random,
  };
  const api: ApiDependencies = {
    portalFetch,
    // One key cache per app, i.e. per isolate in production (worker/index.ts).
    googleKeys: options.googleKeys ?? googleKeySet(),
    now: options.now ?? Date.now,
    cardFingerprint: firstFingerprint(devKit?.cardFingerprint, stripeCardFingerprint()),
    watchCharge: options.watchCharge,
  };

  // Around every sub-app, in this order, so every answer (pages, API, 404s) is logged and leaves
  // with the security headers.
  app.use(requestLog());
  // Inside the log, so the 5xx it records is the one the log line says.
  app.use(serverErrors({ now: options.now }));
  if (devKit) app.use(devKit.provide());
  app.use(securityHeaders());
  // Wraps whatever signs a visitor in (/api, the resume pages): writes the user id's signed
  // cookies for `/api` and `/e` once the answer is made.
  app.use(signedInUserCookies());

  // Each kind of request, with the middleware it needs (worker/sub-apps/). Every sub-app under a
  // prefix ends there; the pages, last, take every other path.
  app.route(LIFECYCLE_PATH, lifecycleApp({ now: options.now }));
  app.route(SUBSCRIBER_LINK_REQUEST_PATH, subscriberLinkRequestApp({ now: options.now }));
  app.route(
    COLLECTOR_PATH,
    collectorApp({ now: options.now, limits: options.collectorLimits, access: deps.access }),
  );
  app.route('/vendor', vendorApp(vendorRoutes()));
  app.route(CONSENT_PATH, vendorApp(consentRoutes()));
  app.route(PICTURES_PATH, picturesApp());
  // The console draws a content preview's page by asking this app for it (its own request).
  const render: RenderApp = (request, env, ctx) => app.fetch(request, env, ctx);
  app.route('/console', consoleApp(deps, { render, simulator: options.simulator }));
  app.route('/api', browserApiApp(deps, api));
  if (devKit) app.route('/test-gateway', otherPagesApp(deps, devKit.testGatewayRoutes()));
  app.route('/app', otherPagesApp(deps, appLoginRoutes({ portalFetch })));
  app.route(RESUME_PAGE_PATH, resumeApp(deps, { portalFetch }));
  app.route(
    CONTRACT_PAGE_PATH,
    contractApp(deps, {
      portalFetch,
      now: options.now,
      answerFloorMs: options.contractAnswerFloorMs,
    }),
  );
  app.route(
    SUBSCRIBER_PAGE_PATH,
    subscriberApp(deps, {
      portalFetch,
      now: options.now,
      cardFingerprint: api.cardFingerprint,
      watchCharge: options.watchCharge,
    }),
  );
  app.route('/', pagesApp(deps, { api, ...options }));
  app.notFound(notFoundPage);
  app.onError(unhandledError);
  return app;
}

/**
 * An error no sub-app answered: JSON on `/api`, where the islands expect it, else the error page.
 */
const unhandledError: ErrorHandler<RootEnv> = function unhandledError(error, c) {
  // A failing middleware before the API routes: the islands expect JSON there, not a page.
  const request = { id: c.get('requestId'), path: c.req.path };
  if (isApiPath(request.path)) return answerApiError(error, c, request);
  c.get('logFields').error = 'unhandled_exception';
  logError('unhandled_exception', { ...request, detail: describeError(error) });
  const language = shownLanguage(c.get('language') ?? 'en');
  const t = c.get('t') ?? shippedTranslator(language);
  return errorPage({
    language,
    theme: c.get('theme') ?? DEFAULT_THEME,
    brand: requestBrand(c.get('config'), c.get('theme')),
    title: t('error_page.title'),
    lead: t('error_page.lead'),
    action: t('error_page.action'),
    retryUrl: new URL(c.req.url).pathname + new URL(c.req.url).search,
    requestId: c.get('requestId'),
  });
};
