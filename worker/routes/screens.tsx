import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { TFunction } from 'i18next';
import type { FlowProgress } from '../../screens/kit/LinearProgress';
import { Page } from '../../screens/layout/Page';
import type { PreviewNotice } from '../../screens/layout/PreviewBar';
import { NotFound } from '../../screens/NotFound';
import { SCREENS as DEFAULT_SCREENS, type ScreenDefinition } from '../../screens/registry';
import type { ScreenProps } from '../../screens/types';
import { heatmapExcluded } from '../../shared/analytics/heatmap';
import type { ConsentState, PixelIds } from '../../shared/analytics/tracking';
import type { RefusedEmail } from '../../shared/api/form-sign-up';
import { logError } from '../../shared/log';
import type { RefusedPhone } from '../../shared/phone/posted-phone';
import { isScreenId, type ScreenId } from '../../shared/screens';
import type { ApiDependencies } from '../api/call-handler';
import { heatmapPage } from '../attribution/heatmap-page';
import { type AppEnv, analyticsCollector, isProduction, type RootEnv } from '../env';
import { flowProgress, nextScreen } from '../funnel/flow';
import { PREVIEW_END_URL } from '../funnel/preview-cookie';
import { bundledTranslator } from '../i18n';
import { exposesNext } from '../middleware/exposure';
import { offersPayPal } from '../middleware/payment-providers';
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
function pageAttribution(c: ScreenContext) {
  const attribution = c.get('attribution');
  const preview = c.get('preview') !== undefined;
  return {
    attribution: preview ? { ...attribution, pixels: NO_AD_TOOLS } : attribution,
    collector: preview ? null : analyticsCollector(c.env),
  };
}

/**
 * The tools the page's script may start: a screen with card fields never names the heatmap's
 * project (shared/analytics/heatmap.ts). The consent banner still names the heatmap there: an
 * answer given on a checkout holds for the screens after it.
 */
function pagePixels(pixels: PixelIds, screen: ScreenId): PixelIds {
  return heatmapExcluded(screen) && pixels.clarity !== null ? { ...pixels, clarity: null } : pixels;
}

/** Each translator's page titles, per screen: a title does not change in a translator's life. */
const titlesByTranslator = new WeakMap<TFunction, Map<ScreenId, string>>();

/**
 * The page's <title> (SPEC.md §9 texts). Kept per translator, as i18next interpolating the three
 * texts took about 8% of the worker's CPU for a landing (docs/performance.md, "A page's CPU on the server"); a translator with an
 * override from KV is a new translator, so its titles are its own.
 */
function pageTitle(t: TFunction, screen: ScreenId): string {
  let titles = titlesByTranslator.get(t);
  if (!titles) {
    titles = new Map();
    titlesByTranslator.set(t, titles);
  }
  let title = titles.get(screen);
  if (title === undefined) {
    title = t('page_title', { title: t(`screens.${screen}.title`), brand: t('brand') });
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

function queryOf(url: string): string {
  return new URL(url).search;
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
  const app = new Hono<AppEnv>();

  function nextOf(current: ScreenId, flow: AppEnv['Variables']['flow']) {
    return nextScreen(flow, current, screens[current].offFlowNext);
  }

  function nextUrl(current: ScreenId, search: string, flow: AppEnv['Variables']['flow']) {
    const next = nextOf(current, flow);
    return next ? `/${next}${search}` : null;
  }

  function hasOwnForm(id: string | undefined): boolean {
    if (!id || !isScreenId(id)) return false;
    return Boolean(screens[id].phoneForm || screens[id].signUpForm);
  }

  /**
   * Runs `guard` on posts from the screens' own forms (phone, email) only; every other Continue
   * form keeps its plain redirect.
   */
  function onOwnForms(guard: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
    return function ownFormsOnly(c, next) {
      return hasOwnForm(c.req.param('screenId')) ? guard(c, next) : next();
    };
  }

  /**
   * A screen's body: kept and served again when nothing in it belongs to one visitor but the
   * query string and their uuid, which go in slots (../render/rendered-screens.ts); else rendered
   * for this request alone (a refused form, a posted number, a marketer's preview).
   */
  function screenBody(
    c: ScreenContext,
    props: ScreenProps,
    nextId: ScreenId | null,
    chrome: {
      attribution: PageAttribution;
      preview?: PreviewNotice;
      progress: FlowProgress | null;
    },
    onError: (error: unknown) => void,
  ): Promise<RenderedBody | EncodedBody> {
    const { Component } = screens[props.screen];
    const render = (screenProps: ScreenProps) =>
      renderBody(
        <Page
          t={props.t}
          attribution={chrome.attribution}
          preview={chrome.preview}
          progress={chrome.progress}
          bottomButton={screens[props.screen].bottomButton}
        >
          <Component {...screenProps} />
        </Page>,
        onError,
      );
    const values = { search: queryOf(c.req.url), visitorId: props.visitorId };
    const ownValues = props.refusedPhone || props.refusedEmail || props.postedPhone;
    if (!renderedScreens || ownValues || chrome.preview || !isSlottable(values)) {
      return render(props);
    }
    const slotted: ScreenProps = {
      ...props,
      continueAction: `/${props.screen}${SEARCH_SLOT}`,
      next: nextId ? `/${nextId}${SEARCH_SLOT}` : null,
      visitorId: VISITOR_SLOT,
    };
    const key = bodyKey({ translator: translatorId(props.t), chrome, props: slotted });
    return renderedScreens.body(key, () => render(slotted)).then((body) => fillSlots(body, values));
  }

  function showScreen(c: ScreenContext, screen: ScreenId, refused?: Refused) {
    const flow = c.get('flow');
    const search = queryOf(c.req.url);
    const nextId = nextOf(screen, flow);
    const next = nextId ? `/${nextId}${search}` : null;
    const t = c.get('t');
    c.get('logFields').screen = screen;
    const { attribution, collector } = pageAttribution(c);
    const preview = c.get('preview');
    const postedPhone = screens[screen].takesPostedPhone ? takePostedPhone(c) : undefined;
    // Any screen may follow a signup screen in some flow: whichever comes next takes the account.
    const account = takeSignedUp(c);
    const onError = (error: unknown) =>
      logError('render_stream_failed', { screen, detail: String(error) });
    const body = screenBody(
      c,
      {
        screen,
        t,
        continueAction: `/${screen}${search}`,
        next,
        country: c.get('country'),
        language: c.get('language'),
        theme: c.get('theme'),
        flow: flow.name,
        // Real pixel events only in production, not merely outside development (env.ts).
        production: isProduction(c.env),
        visitorId: c.get('visitorId'),
        landingType: c.get('variant').landingType,
        googleClientId: c.env.GOOGLE_CLIENT_ID ?? '',
        stripeAccountCountry: stripeAccountCountry(c.env.STRIPE_ACCOUNT_COUNTRY),
        paypal: offersPayPal(c.env),
        refusedPhone: refused?.phone,
        refusedEmail: refused?.email,
        postedPhone,
        inApp: c.get('inApp'),
        routePlans: c.get('experiments').shape.plans ?? undefined,
        upsellPlans: c.get('experiments').shape.upsellPlans ?? undefined,
        guidePlans: c.get('experiments').shape.guidePlans ?? undefined,
      },
      nextId,
      {
        // The chrome reads consent and the ad tools only: nothing of the visitor's tracking data.
        attribution: { consent: attribution.consent, pixels: attribution.pixels },
        preview: preview && {
          variant: preview.variant,
          route: preview.route,
          endUrl: PREVIEW_END_URL,
        },
        progress: flowProgress(flow, screen),
      },
      onError,
    );
    const page = body.then((rendered) =>
      pageResponse(rendered, {
        nonce: c.get('nonce'),
        language: c.get('language'),
        theme: c.get('theme'),
        screenCss: screens[screen].css,
        title: pageTitle(t, screen),
        // A next screen that would expose the visitor is fetched when they go there, so the
        // worker sees that visit (worker/middleware/exposure.ts exposesNext).
        prefetch: nextId && !exposesNext(c, screen, nextId) ? next : null,
        prefetchImages: nextId ? (screens[nextId].images ?? []) : [],
        state: {
          screen,
          next,
          flow: flow.name,
          variant: c.get('variant').key,
          configVersion: c.get('config').version,
          route: c.get('route').id,
          source: c.get('firstTouch').source,
          inApp: c.get('inApp'),
          account,
          analytics: {
            visitorId: c.get('visitorId'),
            // As above: a staging worker's events carry `_test`, like development's.
            production: isProduction(c.env),
            collector,
            ...attribution,
            pixels: pagePixels(attribution.pixels, screen),
            heatmap: heatmapPage({
              clarity: attribution.pixels.clarity,
              consent: attribution.consent,
              screen,
              variant: c.get('variant').key,
              flow: flow.name,
              route: c.get('route').id,
              source: c.get('firstTouch').source,
              configVersion: c.get('config').version,
              assignments: c.get('experiments').assignments,
            }),
          },
        },
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

  app.get('/', (c) => {
    const first = c.get('flow').screens[0];
    return first ? showScreen(c, first) : c.notFound();
  });

  app.get('/:screenId', (c) => {
    const id = c.req.param('screenId');
    return isScreenId(id) ? showScreen(c, id) : c.notFound();
  });

  app.post('/:screenId', onOwnForms(screenFormGuard), async (c) => {
    const id = c.req.param('screenId');
    if (!isScreenId(id)) return c.notFound();
    const search = queryOf(c.req.url);
    c.get('logFields').screen = id;
    // Posted before the island hydrated, or with no script: the island's work, done here.
    if (screens[id].phoneForm) {
      const post = await readPhonePost(c);
      if (!post.accepted) {
        if ('malformed' in post) return post.malformed;
        return showScreen(c, id, { phone: post.refused, status: 422 });
      }
      carryPostedPhone(c, post.e164, post.country);
    }
    if (screens[id].signUpForm) {
      const post = await signUpFromForm(c, id, api);
      if (!post.ok) {
        if ('malformed' in post) return post.malformed;
        return showScreen(c, id, { email: post.refused, status: post.status });
      }
      carrySignedUp(c, post.account);
    }
    return c.redirect(nextUrl(id, search, c.get('flow')) ?? `/${id}${search}`, 303);
  });

  return app;
}

/** The catch-all `*` route: the fallback screen with status 404 (SPEC.md §2). */
export function notFoundPage(c: Context<RootEnv>) {
  const language = c.get('language') ?? 'en';
  // The 404 can come before the translations middleware has run (an early failure).
  const t = c.get('t') ?? bundledTranslator(language);
  c.get('logFields').screen = 'not_found';
  const page = renderPage(
    <Page t={t}>
      <NotFound t={t} startUrl={`/${queryOf(c.req.url)}`} />
    </Page>,
    {
      nonce: c.get('nonce'),
      language,
      theme: c.get('theme') ?? 'geozilla',
      title: t('not_found.title'),
      status: 404,
    },
  );
  return respond(c, page);
}
