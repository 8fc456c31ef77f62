import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { Page } from '../../screens/layout/Page';
import { NotFound } from '../../screens/NotFound';
import { SCREENS as DEFAULT_SCREENS, type ScreenDefinition } from '../../screens/registry';
import type { PixelIds } from '../../shared/analytics/tracking';
import type { RefusedEmail } from '../../shared/api/form-sign-up';
import { logError } from '../../shared/log';
import type { RefusedPhone } from '../../shared/phone/posted-phone';
import { isScreenId, type ScreenId } from '../../shared/screens';
import type { ApiDependencies } from '../api/call-handler';
import { type AppEnv, analyticsCollector, isProduction } from '../env';
import { nextScreen } from '../funnel/flow';
import { PREVIEW_END_URL } from '../funnel/preview-cookie';
import { bundledTranslator } from '../i18n';
import { renderPage } from '../render/render-page';
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

const NO_AD_TOOLS: PixelIds = { meta: null, tiktok: null, googleAds: null, appsflyer: null };

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

/** Hands a rendered page to Hono, so cookies and headers set by middleware go with it. */
async function respond(
  c: ScreenContext,
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
export function screenRoutes(api: ApiDependencies, screens: Screens = DEFAULT_SCREENS) {
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

  function showScreen(c: ScreenContext, screen: ScreenId, refused?: Refused) {
    const flow = c.get('flow');
    const search = queryOf(c.req.url);
    const nextId = nextOf(screen, flow);
    const next = nextId ? `/${nextId}${search}` : null;
    const t = c.get('t');
    const { Component, css } = screens[screen];
    c.get('logFields').screen = screen;
    const { attribution, collector } = pageAttribution(c);
    const preview = c.get('preview');
    const postedPhone = screens[screen].takesPostedPhone ? takePostedPhone(c) : undefined;
    // Any screen may follow a signup screen in some flow: whichever comes next takes the account.
    const account = takeSignedUp(c);
    const page = renderPage(
      <Page
        t={t}
        attribution={attribution}
        preview={preview && { variant: preview.variant, endUrl: PREVIEW_END_URL }}
      >
        <Component
          screen={screen}
          t={t}
          continueAction={`/${screen}${search}`}
          next={next}
          country={c.get('country')}
          language={c.get('language')}
          theme={c.get('theme')}
          flow={flow.name}
          // Real pixel events only in production, not merely outside development (env.ts).
          production={isProduction(c.env)}
          visitorId={c.get('visitorId')}
          landingType={c.get('variant').landingType}
          googleClientId={c.env.GOOGLE_CLIENT_ID ?? ''}
          stripeAccountCountry={stripeAccountCountry(c.env.STRIPE_ACCOUNT_COUNTRY)}
          refusedPhone={refused?.phone}
          refusedEmail={refused?.email}
          postedPhone={postedPhone}
          inApp={c.get('inApp')}
        />
      </Page>,
      {
        nonce: c.get('nonce'),
        language: c.get('language'),
        theme: c.get('theme'),
        screenCss: css,
        title: t('page_title', { title: t(`screens.${screen}.title`), brand: t('brand') }),
        prefetch: next,
        prefetchImages: nextId ? (screens[nextId].images ?? []) : [],
        state: {
          screen,
          next,
          flow: flow.name,
          variant: c.get('variant').key,
          configVersion: c.get('config').version,
          inApp: c.get('inApp'),
          account,
          analytics: {
            visitorId: c.get('visitorId'),
            // As above: a staging worker's events carry `_test`, like development's.
            production: isProduction(c.env),
            collector,
            ...attribution,
          },
        },
        onError: (error) => logError('render_stream_failed', { screen, detail: String(error) }),
        // A refused form is no page of the flow: its status keeps it out of anything counting 200s.
        status: refused?.status,
      },
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
export function notFoundPage(c: ScreenContext) {
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
