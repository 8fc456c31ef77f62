import type { Bindings } from '../env';
import type { AttributionVariables } from './attribution';
import type { ConsoleVariables } from './console-access';
import type { CountryVariables } from './country';
import type { DevKitVariables } from './dev-kit';
import type { ExperimentVariables } from './experiments';
import type { FirstTouchVariables } from './first-touch';
import type { ConfigVariables } from './funnel-config';
import type { InAppVariables } from './in-app';
import type { LocaleVariables, TranslationVariables } from './language';
import type { PreviewCookieVariables } from './preview-cookie';
import type { RequestLogVariables } from './request-log';
import type { RouteVariables } from './route';
import type { SecurityHeadersVariables } from './security-headers';
import type { SignedInUserVariables } from './signed-in-user';
import type { VisitorVariables } from './visitor';

/**
 * The Env of each sub-app, made of what its middleware sets: each middleware declares its own
 * Variables beside it, and a sub-app's Env names the middleware it runs.
 */

/**
 * What every request has, whichever sub-app answers it: set by the global middleware of
 * worker/app.tsx (request log, development kit, security headers) or, for `signedInUserId`, by
 * whatever signs a visitor in.
 */
export interface BaseVariables
  extends RequestLogVariables,
    SecurityHeadersVariables,
    DevKitVariables,
    SignedInUserVariables {}

/** The page's language, theme and copy (the locale and translations middleware). */
export interface LanguageVariables extends LocaleVariables, TranslationVariables {}

/** Set only on the funnel's pages (the in-app, first touch and attribution middleware). */
export interface VisitVariables extends InAppVariables, FirstTouchVariables, AttributionVariables {}

/** A sub-app's Env: the one set of Bindings, and the Variables its middleware sets. */
export type EnvOf<V> = { Bindings: Bindings; Variables: V };

/** Everything a funnel page's middleware sets (worker/sub-apps/pages.ts). */
export interface Variables
  extends BaseVariables,
    VisitorVariables,
    PreviewCookieVariables,
    CountryVariables,
    LanguageVariables,
    ConfigVariables,
    RouteVariables,
    ExperimentVariables,
    VisitVariables {}

/**
 * What the route middleware may rely on: it runs for the pages, the API and the app pages, where
 * only the pages know the language's first touch and in-app browser.
 */
export type RouteMiddlewareEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    PreviewCookieVariables &
    CountryVariables &
    ConfigVariables &
    RouteVariables &
    Partial<LanguageVariables & VisitVariables>
>;

/** What the experiments middleware may rely on: where the route middleware runs, after it. */
export type ExperimentsMiddlewareEnv = EnvOf<RouteMiddlewareEnv['Variables'] & ExperimentVariables>;

/** The funnel's pages (worker/sub-apps/pages.ts). */
export type AppEnv = EnvOf<Variables>;

/**
 * The whole worker, as its global middleware and error handler see a request: whichever sub-app
 * answers it, anything beyond BaseVariables may be missing.
 */
export type RootEnv = EnvOf<BaseVariables & Partial<Omit<Variables, keyof BaseVariables>>>;

/** What every sub-app's Env extends: a helper generic over it serves every kind of request. */
export type BaseEnv = EnvOf<BaseVariables>;

/** The product API's lifecycle hooks (worker/sub-apps/lifecycle.ts): the global middleware only. */
export type LifecycleEnv = BaseEnv;

/** A request whose country is known: a helper generic over it serves the collector and after. */
export type CountryEnv = EnvOf<BaseVariables & CountryVariables>;

/** The analytics collector (worker/sub-apps/collector.ts). */
export type CollectorEnv = CountryEnv;

/** The third-party script and the consent banner's answer (worker/sub-apps/vendor.ts). */
export type VendorEnv = EnvOf<BaseVariables & VisitorVariables & CountryVariables>;

/** The marketers' console (worker/sub-apps/console.ts). */
export type ConsoleEnv = EnvOf<BaseVariables & ConfigVariables & ConsoleVariables>;

/** The browser's API (worker/sub-apps/browser-api.ts). */
export type ApiEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    PreviewCookieVariables &
    CountryVariables &
    ConfigVariables &
    RouteVariables &
    ExperimentVariables
>;

/**
 * Pages outside the funnel's screens: the app login link, the development test gateway
 * (worker/sub-apps/other-pages.ts). Assigned like a page, without its visit (first touch, ads).
 */
export type OtherPagesEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    PreviewCookieVariables &
    CountryVariables &
    LanguageVariables &
    ConfigVariables &
    RouteVariables &
    ExperimentVariables
>;

/**
 * The resume links (worker/sub-apps/resume.ts): no visitor middleware, the link sets the
 * visitor id it carries once it holds.
 */
export type ResumeEnv = EnvOf<
  BaseVariables & Partial<VisitorVariables> & CountryVariables & LanguageVariables & ConfigVariables
>;

/**
 * The subscriber's page (worker/sub-apps/subscriber.ts): the page's language, brand and content,
 * and no visitor at all: its link is opened from an email, anywhere.
 */
export type SubscriberEnv = EnvOf<
  BaseVariables & CountryVariables & LanguageVariables & ConfigVariables
>;
