import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { TFunction } from 'i18next';
import type { PageState } from '../../islands/protocol';
import type { FlowProgress } from '../../screens/kit/LinearProgress';
import { Page } from '../../screens/layout/Page';
import type { PreviewNotice } from '../../screens/layout/PreviewBar';
import { NotFound } from '../../screens/NotFound';
import { SCREENS as DEFAULT_SCREENS, type ScreenDefinition } from '../../screens/registry';
import type { ScreenProps } from '../../screens/types';
import { heatmapExcluded } from '../../shared/analytics/heatmap';
import type { ConsentState, PageVitals, PixelIds } from '../../shared/analytics/tracking';
import { COLLECTOR_PATH } from '../../shared/analytics/tracking';
import type { RefusedEmail } from '../../shared/api/form-sign-up';
import type { Brand } from '../../shared/brand';
import { type ComposedScreens, type ScreenRef, screenOfRef } from '../../shared/composed-screens';
import { DECLINE_CLASS_PARAM, type DeclineClass, isDeclineClass } from '../../shared/decline-class';
import { logError } from '../../shared/log';
import type { RefusedPhone } from '../../shared/phone/posted-phone';
import type { OfferClock } from '../../shared/plans/offer-clock';
import { isSellingScreen } from '../../shared/plans/screen-offers';
import type { ScreenId } from '../../shared/screens';
import { DEFAULT_THEME } from '../../shared/theme';
import type { ApiDependencies } from '../api/call-handler';
import { drawsAreaMaps } from '../area-map/area-map-cookie';
import { heatmapPage } from '../attribution/heatmap-page';
import { pageVitals } from '../collector/vitals-sample';
import { shownContent } from '../content/screen-content';
import type { Bindings } from '../env';
import { isProduction } from '../environment';
import { requestBrand } from '../funnel/brand';
import { draftContentOf } from '../funnel/draft-content';
import { type ActiveFlow, flowPaywall, flowProgress, flowSignUp, nextScreen } from '../funnel/flow';
import { PREVIEW_END_URL } from '../funnel/preview-cookie';
import { visitorCurrency } from '../funnel/visitor-currency';
import { brandedTranslator, bundledTranslator } from '../i18n';
import type { Attribution } from '../middleware/attribution';
import type { AppEnv, RootEnv } from '../middleware/envs';
import { armsCountedOn, exposesNext } from '../middleware/exposure';
import { offersPayPal } from '../middleware/payment-providers';
import { pageOfferClock } from '../purchases/offer-deadline';
import {
  type EncodedBody,
  pageResponse,
  type RenderedBody,
  renderBody,
  renderPage,
} from '../render/render-page';
import {
  bodyKey,
  fillSlots,
  isSlottable,
  RenderedScreens,
  SEARCH_SLOT,
  translatorId,
  VISITOR_SLOT,
} from '../render/rendered-screens';
import { stripeAccountCountry } from '../stripe-account-country';
import { screenFormGuard } from './form-post';
import { carryPostedPhone, readPhonePost, takePostedPhone } from './phone-form';
import { carrySignedUp, signUpFromForm, takeSignedUp } from './signup-form';

type Screens = Record<ScreenId, ScreenDefinition>;

type ScreenContext = Context<AppEnv>;

/**
 * The screen a request shows: `ref`, as the path and the flow name it (a composed screen's own
 * id), drawn and behaving as `screen`, the screen in code (itself, or the composed one's `from`).
 */
interface Shown {
  ref: ScreenRef;
  screen: ScreenId;
}

/** The screen `ref` names in the request's content, or null when there is none of that name. */
function shownOf(c: ScreenContext, ref: string | undefined): Shown | null {
  const screen = ref === undefined ? null : screenOfRef(c.get('config').content, ref);
  return screen === null ? null : { ref: ref as ScreenRef, screen };
}

/** A screen's own form refused what was posted: shown again with it, under this status. */
interface Refused {
  phone?: RefusedPhone;
  email?: RefusedEmail;
  status: number;
}

/**
 * Bodies kept per isolate: every screen in a few languages, themes and countries. At about 30 KB
 * each, 256 take some 8 MB of the isolate's 128 MB.
 */
const RENDERED_SCREENS_KEPT = 256;

type PageAttribution = { consent: ConsentState; pixels: PixelIds };

const NO_AD_TOOLS: PixelIds = {
  meta: null,
  tiktok: null,
  googleAds: null,
  appsflyer: null,
  clarity: null,
};

/**
 * What the page hands the ad tools and the tracker. A marketer's preview (worker/funnel/preview.ts)
 * is no visit: no pixel loads (so no consent banner asks either) and the tracker sends nothing.
 */
function pageAttribution(attribution: Attribution, preview: boolean, env: Bindings) {
  return {
    attribution: preview ? { ...attribution, pixels: NO_AD_TOOLS } : attribution,
    collector: preview || env.ANALYTICS === 'off' ? null : COLLECTOR_PATH,
  };
}

/**
 * The tools the page's script may start: a screen with card fields, or one composed from such a
 * screen, never names the heatmap's project (shared/analytics/heatmap.ts), as the security
 * headers refuse it there (worker/middleware/security-headers.ts heatmapMayRun). The consent
 * banner still names the heatmap there: an answer given on a checkout holds for the screens
 * after it.
 */
function pagePixels(pixels: PixelIds, { screen }: Shown): PixelIds {
  const excluded = heatmapExcluded(screen);
  return excluded && pixels.clarity !== null ? { ...pixels, clarity: null } : pixels;
}

/** Each translator's page titles, per screen: a title does not change in a translator's life. */
const titlesByTranslator = new WeakMap<TFunction, Map<ScreenId, string>>();

/**
 * The page's <title> (SPEC.md §9 texts). Kept per translator, as i18next interpolating the three
 * texts took about 8% of the worker's CPU for a landing (docs/performance.md, "A page's CPU on the server"); a translator with an
 * override from KV is a new translator, so its titles are its own.
 */
function pageTitle(t: TFunction, brand: Brand, screen: ScreenId): string {
  let titles = titlesByTranslator.get(t);
  if (!titles) {
    titles = new Map();
    titlesByTranslator.set(t, titles);
  }
  let title = titles.get(screen);
  if (title === undefined) {
    title = t('page_title', { title: t(`screens.${screen}.title`), brand: brand.titleSuffix });
    titles.set(screen, title);
  }
  return title;
}

/** Hands a rendered page to Hono, so cookies and headers set by middleware go with it. */
async function respond(
  c: Context,
  page: Promise<Response>,
  headers?: Record<string, string>,
): Promise<Response> {
  const response = await page;
  for (const [name, value] of Object.entries(headers ?? {})) response.headers.set(name, value);
  return c.body(response.body as ReadableStream, response);
}

/**
 * The visitor's query, as every move keeps it (SPEC.md §2), less a decline's class: that is
 * advice for 'Payment declined' alone, which the page's links and forms do not carry on.
 */
function queryOf(url: string): string {
  return searchWithoutDeclineClass(new URL(url).search);
}

/** The class 'Payment declined' names in its address, if it is one (else the advice for any). */
function declineClassIn(url: string): DeclineClass | undefined {
  const named = new URL(url).searchParams.get(DECLINE_CLASS_PARAM);
  return isDeclineClass(named) ? named : undefined;
}

function searchWithoutDeclineClass(search: string): string {
  const params = new URLSearchParams(search);
  if (!params.has(DECLINE_CLASS_PARAM)) return search;
  params.delete(DECLINE_CLASS_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** What the screen routes are built from: the screens, the kept bodies, the API for forms. */
interface ScreenDeps {
  api: ApiDependencies;
  screens: Screens;
  renderedScreens: RenderedScreens | null;
}

/**
 * Screen routes (SPEC.md §2): `/` shows the first screen of the visitor's flow, `/:screenId`
 * each screen, a POST to a screen (its Continue form without JavaScript) moves to the next. A
 * landing's POST is its phone form's, checked first as the island would (./phone-form.ts); a
 * signup screen's is its email form's, which creates the account first (./signup-form.ts).
 */
export function screenRoutes(
  api: ApiDependencies,
  screens: Screens = DEFAULT_SCREENS,
  renderedScreens: RenderedScreens | null = new RenderedScreens(RENDERED_SCREENS_KEPT),
) {
  const deps: ScreenDeps = { api, screens, renderedScreens };
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const first = shownOf(c, c.get('flow').screens[0]);
    return first ? showScreen(deps, c, first) : c.notFound();
  });

  app.get('/:screenId', (c) => {
    const shown = shownOf(c, c.req.param('screenId'));
    return shown ? showScreen(deps, c, shown) : c.notFound();
  });

  app.post('/:screenId', onOwnForms(screens, screenFormGuard), (c) => continueFrom(deps, c));

  return app;
}

function nextOf(
  screens: Screens,
  current: Shown,
  visit: { flow: ActiveFlow; content: ComposedScreens },
): ScreenRef | null {
  const { offFlowNext, backToPaywall } = screens[current.screen];
  const offFlow = backToPaywall
    ? (flowPaywall(visit.flow, visit.content) ?? offFlowNext)
    : offFlowNext;
  return nextScreen(visit.flow, current.ref, offFlow);
}

/**
 * Runs `guard` on posts from the screens' own forms (phone, email) only; every other Continue
 * form keeps its plain redirect.
 */
function onOwnForms(screens: Screens, guard: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  const hasOwnForm = (shown: Shown | null): boolean =>
    shown !== null && Boolean(screens[shown.screen].phoneForm || screens[shown.screen].signUpForm);
  return function ownFormsOnly(c, next) {
    return hasOwnForm(shownOf(c, c.req.param('screenId'))) ? guard(c, next) : next();
  };
}

/** A screen's Continue form, posted before the island hydrated or with no script. */
async function continueFrom(deps: ScreenDeps, c: ScreenContext): Promise<Response> {
  const { screens } = deps;
  const shown = shownOf(c, c.req.param('screenId'));
  if (!shown) return c.notFound();
  const { ref, screen } = shown;
  const search = queryOf(c.req.url);
  c.get('logFields').screen = ref;
  // Posted before the island hydrated, or with no script: the island's work, done here.
  if (screens[screen].phoneForm) {
    const post = await readPhonePost(c);
    if (!post.accepted) {
      if ('malformed' in post) return post.malformed;
      return showScreen(deps, c, shown, { phone: post.refused, status: 422 });
    }
    carryPostedPhone(c, post.e164, post.country);
  }
  if (screens[screen].signUpForm) {
    const post = await signUpFromForm(c, shown, deps.api);
    if (!post.ok) {
      if ('malformed' in post) return post.malformed;
      return showScreen(deps, c, shown, { email: post.refused, status: post.status });
    }
    carrySignedUp(c, post.account);
  }
  const next = nextOf(screens, shown, { flow: c.get('flow'), content: c.get('config').content });
  return c.redirect(next ? `/${next}${search}` : `/${ref}${search}`, 303);
}

/** What frames a screen's body: the ad tools' consent, a preview's bar, the progress. */
interface Chrome {
  attribution: PageAttribution;
  preview?: PreviewNotice;
  progress: FlowProgress | null;
}

/**
 * A screen's body: kept and served again when nothing in it belongs to one visitor but the
 * query string (`search`) and their uuid, which go in slots (../render/rendered-screens.ts); else
 * rendered for this request alone (a refused form, a posted number, a marketer's preview).
 */
function screenBody(
  deps: ScreenDeps,
  search: string,
  props: ScreenProps,
  shown: { ref: ScreenRef; next: ScreenRef | null },
  chrome: Chrome,
  onError: (error: unknown) => void,
): Promise<RenderedBody | EncodedBody> {
  const { screens, renderedScreens } = deps;
  const { Component } = screens[props.screen];
  const render = (screenProps: ScreenProps) =>
    renderBody(
      <Page
        t={props.t}
        brand={props.brand}
        attribution={chrome.attribution}
        preview={chrome.preview}
        progress={chrome.progress}
        bottomButton={screens[props.screen].bottomButton}
      >
        <Component {...screenProps} />
      </Page>,
      onError,
    );
  const values = { search, visitorId: props.visitorId };
  const ownValues = props.refusedPhone || props.refusedEmail || props.postedPhone;
  if (!renderedScreens || ownValues || chrome.preview || !isSlottable(values)) {
    return render(props);
  }
  const slotted: ScreenProps = {
    ...props,
    signUpAt: props.signUpAt ? props.signUpAt.replace(/\?.*$/, '') + SEARCH_SLOT : null,
    continueAction: `/${shown.ref}${SEARCH_SLOT}`,
    next: shown.next ? `/${shown.next}${SEARCH_SLOT}` : null,
    visitorId: VISITOR_SLOT,
  };
  const key = bodyKey({ translator: translatorId(props.t), chrome, props: slotted });
  return renderedScreens.body(key, () => render(slotted)).then((body) => fillSlots(body, values));
}

/**
 * A screen as the request's visitor sees it: where it leads, what it knows, what it offers. It
 * takes the context as it takes the posted number, clearing its cookie (./phone-form.ts).
 */
function screenProps(
  deps: ScreenDeps,
  c: ScreenContext,
  { ref, screen }: Shown,
  next: string | null,
  refused: Refused | undefined,
  clock: OfferClock,
): ScreenProps {
  const experiments = c.get('experiments');
  // A marketer's content for this screen, as the visitor's experiments and route show it: its
  // sections' arrangement and its copy (a composed screen's own, by the id the flow names).
  const variant = experiments.shape.content?.[ref] ?? null;
  const shown = shownContent(c.get('config').content, ref, c.get('language'), c.get('t'), variant);
  const brand = requestBrand(c.get('config'), c.get('theme'));
  return {
    screen,
    t: brandedTranslator(shown.t, brand),
    brand,
    arrangement: shown.arrangement,
    picture: shown.picture,
    rating: shown.rating,
    continueAction: `/${ref}${queryOf(c.req.url)}`,
    next,
    country: c.get('country'),
    currency: visitorCurrency(c.get('config').routing, experiments.shape, c.get('country')),
    language: c.get('language'),
    theme: c.get('theme'),
    flow: c.get('flow').name,
    signUpAt: signUpAt(c, queryOf(c.req.url)),
    // Real pixel events only in production, not merely outside development (env.ts).
    production: isProduction(c.env),
    visitorId: c.get('visitorId'),
    landingType: c.get('variant').landingType,
    googleClientId: c.env.GOOGLE_CLIENT_ID ?? '',
    stripeAccountCountry: stripeAccountCountry(c.env.STRIPE_ACCOUNT_COUNTRY),
    paypal: offersPayPal(c.env),
    staticMap: drawsAreaMaps(c.env),
    refusedPhone: refused?.phone,
    refusedEmail: refused?.email,
    postedPhone: deps.screens[screen].takesPostedPhone ? takePostedPhone(c) : undefined,
    inApp: c.get('inApp'),
    routePlans: experiments.shape.plans ?? undefined,
    upsellPlans: experiments.shape.upsellPlans ?? undefined,
    guidePlans: experiments.shape.guidePlans ?? undefined,
    declineClass: screen === 'payment_declined' ? declineClassIn(c.req.url) : undefined,
    offerClock: clock,
    anchors: experiments.shape.anchors !== false,
  };
}

/** The flow's sign-up screen with the visitor's query, as every move keeps it (SPEC.md §2). */
function signUpAt(c: ScreenContext, search: string): string | null {
  const ref = flowSignUp(c.get('flow'), c.get('config').content);
  return ref === null ? null : `/${ref}${search}`;
}

/**
 * The offer countdown of a screen that sells with one (every selling screen but the guide's,
 * whose price is its own): its deadline is fixed on the first such page the visitor sees.
 */
async function offerClockOf(c: ScreenContext, screen: ScreenId): Promise<OfferClock> {
  if (!isSellingScreen(screen) || screen === 'upsell_guide') return { state: 'off' };
  return pageOfferClock(c, c.get('experiments').shape.countdown !== false, Date.now());
}

/** The frame of a screen's body (see Chrome), on a marketer's `preview` or not. */
function screenChrome(
  visit: { flow: ActiveFlow; preview: AppEnv['Variables']['preview']; draft: boolean },
  screen: ScreenRef,
  attribution: PageAttribution,
): Chrome {
  const { preview } = visit;
  return {
    // The chrome reads consent and the ad tools only: nothing of the visitor's tracking data.
    attribution: { consent: attribution.consent, pixels: attribution.pixels },
    preview: preview && {
      variant: preview.variant,
      route: preview.route,
      endUrl: PREVIEW_END_URL,
      ...(visit.draft ? { draft: true } : {}),
    },
    progress: flowProgress(visit.flow, screen),
  };
}

async function showScreen(
  deps: ScreenDeps,
  c: ScreenContext,
  shown: Shown,
  refused?: Refused,
): Promise<Response> {
  const { screens } = deps;
  const { ref, screen } = shown;
  const search = queryOf(c.req.url);
  const nextId = nextOf(screens, shown, { flow: c.get('flow'), content: c.get('config').content });
  const nextScreen = nextId === null ? null : screenOfRef(c.get('config').content, nextId);
  const next = nextId ? `/${nextId}${search}` : null;
  c.get('logFields').screen = ref;
  const { attribution, collector } = pageAttribution(
    c.get('attribution'),
    c.get('preview') !== undefined,
    c.env,
  );
  const props = screenProps(deps, c, shown, next, refused, await offerClockOf(c, screen));
  const { t } = props;
  // Any screen may follow a signup screen in some flow: whichever comes next takes the account.
  const account = takeSignedUp(c);
  const onError = (error: unknown) =>
    logError('render_stream_failed', { screen, detail: String(error) });
  const visit = {
    flow: c.get('flow'),
    preview: c.get('preview'),
    // The console editor's frame: the page drawn from a draft only the worker can attach.
    draft: draftContentOf(c.req.raw) !== undefined,
  };
  const chrome = screenChrome(visit, ref, attribution);
  const body = screenBody(deps, search, props, { ref, next: nextId }, chrome, onError);
  const page = body.then((rendered) =>
    pageResponse(rendered, {
      nonce: c.get('nonce'),
      language: c.get('language'),
      theme: c.get('theme'),
      brand: props.brand,
      screenCss: screens[screen].css,
      title: pageTitle(t, props.brand, screen),
      // A next screen that would expose the visitor is fetched when they go there, so the
      // worker sees that visit (worker/middleware/exposure.ts exposesNext).
      prefetch:
        nextId && !exposesNext(c.get('experiments'), c.get('config'), ref, nextId) ? next : null,
      prefetchImages: nextScreen ? (screens[nextScreen].images ?? []) : [],
      state: pageState(c, { shown, next, account, collector, attribution }),
      islandFailure: {
        message: t('kit.island_failed.message'),
        reload: t('kit.island_failed.reload'),
      },
      onError,
      // A refused form is no page of the flow: its status keeps it out of anything counting 200s.
      status: refused?.status,
    }),
  );
  // The account's login grant is in this page: the browser keeps no copy of it.
  return respond(c, page, account ? { 'cache-control': 'no-store' } : undefined);
}

/**
 * The page's state for its islands and tracker (islands/protocol.ts PageState), read from the
 * page's context: nearly every variable the page middleware set goes into it.
 */
function pageState(
  c: ScreenContext,
  page: {
    shown: Shown;
    next: string | null;
    account: PageState['account'];
    collector: string | null;
    attribution: Attribution;
  },
): PageState {
  const { shown, attribution } = page;
  // The analytics name a composed screen by the screen in code it behaves as (SPEC.md §3).
  const { screen } = shown;
  const flow = c.get('flow').name;
  const variant = c.get('variant').key;
  const route = c.get('route').id;
  const source = c.get('firstTouch').source;
  const configVersion = c.get('config').version;
  return {
    screen,
    next: page.next,
    flow,
    variant,
    configVersion,
    route,
    source,
    inApp: c.get('inApp'),
    account: page.account,
    analytics: {
      visitorId: c.get('visitorId'),
      // As above: a staging worker's events carry `_test`, like development's.
      production: isProduction(c.env),
      collector: page.collector,
      ...attribution,
      pixels: pagePixels(attribution.pixels, shown),
      heatmap: heatmapPage({
        clarity: attribution.pixels.clarity,
        consent: attribution.consent,
        screen,
        variant,
        flow,
        route,
        source,
        configVersion,
        assignments: c.get('experiments').assignments,
      }),
      ...vitalsOf(c, page.collector),
    },
  };
}

/** A sampled visitor's page measures its vitals; a preview or a page without analytics never. */
function vitalsOf(c: ScreenContext, collector: string | null): { vitals?: PageVitals } {
  if (collector === null) return {};
  const vitals = pageVitals(c.env, c.get('visitorId'), () =>
    armsCountedOn(c.get('experiments'), c.get('config'), c.req.path),
  );
  return vitals === undefined ? {} : { vitals };
}

/** The catch-all `*` route: the fallback screen with status 404 (SPEC.md §2). */
export function notFoundPage(c: Context<RootEnv>) {
  const language = c.get('language') ?? 'en';
  // The 404 can come before the translations middleware has run (an early failure).
  const brand = requestBrand(c.get('config'), c.get('theme'));
  const t = brandedTranslator(c.get('t') ?? bundledTranslator(language), brand);
  c.get('logFields').screen = 'not_found';
  const page = renderPage(
    <Page t={t} brand={brand}>
      <NotFound t={t} startUrl={`/${queryOf(c.req.url)}`} />
    </Page>,
    {
      nonce: c.get('nonce'),
      language,
      theme: c.get('theme') ?? DEFAULT_THEME,
      brand,
      title: t('not_found.title'),
      status: 404,
    },
  );
  return respond(c, page);
}
