import { Hono } from 'hono';
import { CONSENT_PATH } from '../screens/layout/ConsentBar';
import type { ScreenDefinition } from '../screens/registry';
import { COLLECTOR_PATH } from '../shared/analytics/tracking';
import { LIFECYCLE_PATH } from '../shared/api/lifecycle';
import { RESUME_PAGE_PATH } from '../shared/api/resume-paths';
import { describeError, logError } from '../shared/log';
import type { ScreenId } from '../shared/screens';
import type { ApiDependencies } from './api/call-handler';
import { firstFingerprint, stripeCardFingerprint } from './api/card-fingerprint';
import type { GoogleKeys } from './api/google-id-token';
import { googleKeySet } from './api/google-keys';
import type { PortalFetch } from './api/portal-transport';
import { apiRoutes } from './api/routes';
import { signedInUserCookies } from './api/signed-in-user';
import { apiErrorHandler, isApiPath } from './api/unhandled-error';
import { collectorRoutes } from './collector/collect-route';
import type { IntakeLimits } from './collector/intake-limits';
import { createConfigSource } from './config/load';
import type { AccessKeys } from './console/access';
import { consoleRoutes } from './console/routes';
import type { DevKit } from './dev-kit';
import type { AppEnv } from './env';
import type { RandomSource } from './funnel/split-test';
import { bundledTranslator, SUPPORTED_LANGUAGES } from './i18n';
import { lifecycleRoutes } from './lifecycle/route';
import { attribution } from './middleware/attribution';
import { country } from './middleware/country';
import { provideDevKit } from './middleware/dev-kit';
import { exceptPaths } from './middleware/except-paths';
import { experiments } from './middleware/experiments';
import { exposure } from './middleware/exposure';
import { firstTouch } from './middleware/first-touch';
import { funnelConfig } from './middleware/funnel-config';
import { inAppBrowser } from './middleware/in-app';
import { locale } from './middleware/locale';
import { requestLog } from './middleware/request-log';
import { route } from './middleware/route';
import { securityHeaders } from './middleware/security-headers';
import { translations } from './middleware/translations';
import { visitor } from './middleware/visitor';
import { errorPage } from './render/render-page';
import type { RenderedScreens } from './render/rendered-screens';
import { resumeRoutes } from './resume/resume-route';
import { appLoginRoutes } from './routes/app-login';
import { consentRoutes } from './routes/consent';
import { notFoundPage, screenRoutes } from './routes/screens';
import { vendorRoutes } from './routes/vendor';
import { createTranslationSource } from './translations/source';

export interface AppOptions {
  /**
   * The development kit (worker/dev-kit.ts): the embedded portal, the test gateway. Only the
   * development entry (worker/dev.ts) passes one; without it the app is the production worker.
   */
  devKit?: DevKit;
  /**
   * Stands in for the hash of the visitor id that places visitors in experiments (every layer's
   * bucket, coverage and variant pick, worker/experiments/assign.ts); tests fix it.
   */
  random?: RandomSource;
  /** Screen registry; tests swap in screens that fail on purpose. */
  screens?: Record<ScreenId, ScreenDefinition>;
  /**
   * Stands in for the portal (PORTAL_URL or the embedded emulator) behind `/api/*` and
   * `/app/login`; tests put a portal here that is down, slow or answers garbage. Wins over the
   * development kit's emulator.
   */
  portalFetch?: PortalFetch;
  /**
   * Google's signing keys; tests pass `googleKeySet({ fetch })` with keys they made, so no test
   * reaches the internet.
   */
  googleKeys?: GoogleKeys;
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
}

const API_PATHS = '/api/*';
/**
 * The resume links (worker/resume/) set the visitor's uuid, variant and ad cookies from what they
 * carry: the middleware that would make fresh ones first (visitor, split test, attribution) skips
 * them, so nothing is drawn or exposed there and each cookie is set once.
 */
const RESUME_PAGES = `${RESUME_PAGE_PATH}/*`;
/** Requests that are not the funnel's pages: no attribution, no ad cookies. */
const NOT_PAGES = [
  API_PATHS,
  '/e',
  '/test-gateway/*',
  '/app/*',
  '/console',
  '/console/*',
  RESUME_PAGES,
];

export function createApp(options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  const configSource = createConfigSource();
  const translationSource = createTranslationSource();
  const { devKit } = options;
  const portalFetch = options.portalFetch ?? devKit?.portal;

  app.use(requestLog());
  if (devKit) app.use(provideDevKit(devKit));
  // Around everything below, so every answer (pages, API, 404s) leaves with the headers.
  app.use(securityHeaders());
  // Wraps whatever signs a visitor in (/api, the resume pages): writes the user id's signed
  // cookies for `/api` and `/e` once the answer is made.
  app.use(signedInUserCookies());
  // The product API's signed lifecycle events: a server's call, not a visit, so before the
  // visitor middleware (no uuid cookie) and everything after it; its answer ends the chain.
  app.route(LIFECYCLE_PATH, lifecycleRoutes({ now: options.now }));
  // The collector reads the visitor's uuid cookie and makes none: a fresh uuid cookie on a
  // beacon's answer would only give a cookieless visitor a second identity (a batch without
  // the cookie is stored under a device id derived from its events, event-identity.ts).
  app.use(exceptPaths([COLLECTOR_PATH, RESUME_PAGES], visitor()));
  app.use(country());
  // Before the page middleware (language, copy, funnel config, split test), none of which an
  // analytics batch needs: its answer ends the chain here.
  app.route(COLLECTOR_PATH, collectorRoutes({ now: options.now, limits: options.collectorLimits }));
  // Likewise the AppsFlyer smart script and the consent banner's no-script answer.
  app.route('/vendor', vendorRoutes());
  app.route(CONSENT_PATH, consentRoutes());
  // The language and its texts are for pages; the API answers codes the islands translate, so
  // its calls skip them (and the translation manifest's KV read).
  app.use(exceptPaths(API_PATHS, locale({ supported: SUPPORTED_LANGUAGES })));
  app.use(exceptPaths(API_PATHS, translations(translationSource)));
  app.use(funnelConfig(configSource));
  // Before the experiments: a marketer at the console is no visitor and is assigned nothing.
  app.route('/console', consoleRoutes({ accessKeys: options.accessKeys, now: options.now }));
  // What the routes read (the in-app browser, the visit's first touch), then the route, which
  // the experiments need: each takes the visitors of the routes it names.
  app.use(exceptPaths(NOT_PAGES, inAppBrowser()));
  app.use(exceptPaths(NOT_PAGES, firstTouch({ now: options.now })));
  app.use(exceptPaths(RESUME_PAGES, route({ now: options.now })));
  app.use(exceptPaths(RESUME_PAGES, experiments({ random: options.random, now: options.now })));
  // After the experiments, which tell a marketer's preview apart: it gets no ad cookie.
  app.use(exceptPaths(NOT_PAGES, attribution()));
  // Once the answer is ready: whether this page exposed the visitor to an experiment.
  app.use(exposure({ now: options.now }));

  const api: ApiDependencies = {
    portalFetch,
    // One key cache per app, i.e. per isolate in production (worker/index.ts).
    googleKeys: options.googleKeys ?? googleKeySet(),
    now: options.now ?? Date.now,
    cardFingerprint: firstFingerprint(devKit?.cardFingerprint, stripeCardFingerprint()),
  };
  // Before the screens, whose `POST /:screenId` would otherwise claim `/api`.
  app.route('/api', apiRoutes(api));
  if (devKit) app.route('/test-gateway', devKit.testGatewayRoutes());
  app.route('/app', appLoginRoutes({ portalFetch }));
  app.route(RESUME_PAGE_PATH, resumeRoutes({ now: options.now, portalFetch }));
  app.route('/', screenRoutes(api, options.screens, options.renderedScreens));
  app.notFound(notFoundPage);

  app.onError((error, c) => {
    // A failing middleware before the API routes: the islands expect JSON there, not a page.
    if (isApiPath(c.req.path)) return apiErrorHandler(error, c);
    const fields = c.get('logFields');
    if (fields) fields.error = 'unhandled_exception';
    logError('unhandled_exception', {
      id: c.get('requestId'),
      path: c.req.path,
      detail: describeError(error),
    });
    const language = c.get('language') ?? 'en';
    const t = c.get('t') ?? bundledTranslator(language);
    return errorPage({
      language,
      theme: c.get('theme') ?? 'geozilla',
      title: t('error_page.title'),
      lead: t('error_page.lead'),
      action: t('error_page.action'),
      retryUrl: new URL(c.req.url).pathname + new URL(c.req.url).search,
      requestId: c.get('requestId') ?? '',
    });
  });

  return app;
}
