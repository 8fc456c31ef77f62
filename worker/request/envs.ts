import type { TFunction } from 'i18next';
import type { ConsentState, PixelIds, TrackingData } from '../../shared/analytics/tracking';
import type { TokenHolder } from '../../shared/console-api/tokens';
import type { InAppBrowser } from '../../shared/in-app-browser';
import type { LogFields } from '../../shared/log';
import type { Theme } from '../../shared/theme';
import type { FunnelConfig } from '../config/load';
import type { DevKit } from '../dev-kit';
import type { Bindings } from '../env';
import type { ExperimentAssignment, VisitorAccount } from '../experiments/config/evaluate';
import type { HoldoutExposure } from '../experiments/holdout/holdout';
import type { ActiveFlow, FunnelShape, VariantAssignment } from '../funnel/flow';
import type { PreviewedRoute } from '../preview/preview';
import type { FirstTouch } from '../routing/first-touch';
import type { ChosenRoute, RouteRampArm } from '../routing/router';
import type { SignedInUserVariables } from './signed-in-user';

/**
 * What each middleware learns of a request and sets on it (worker/middleware/: the file named
 * in each comment), declared here, where the handlers and the code below them read the facts
 * they pass down.
 */

/** Set by the attribution middleware, on the funnel's pages only. */
export interface AttributionVariables {
  /** Click ids, ad cookies, consent and the tracking user data of a page request. */
  attribution: Attribution;
}

/** What a page knows about the visitor's attribution (c.get('attribution')). */
export interface Attribution {
  consent: ConsentState;
  pixels: PixelIds;
  tracking: TrackingData;
}

/**
 * Set by the console's access check, first of the console's own middleware: no console handler
 * runs without it.
 */
export interface ConsoleVariables {
  /**
   * Who is using the console: the Access token's email, the local author in development, or
   * `token:<name>` for a console token's request.
   */
  consoleAuthor: string;
  /** Set for a console token's request only: the token's name and scopes. */
  consoleToken?: TokenHolder;
}

/** Set by the country middleware. */
export interface CountryVariables {
  /** ISO country code, or null when unknown. */
  country: string | null;
  /**
   * Set when a marketer's preview named the country with `?country=` (outside production only):
   * the preview's first touch and route are then taken from this request, as a new visitor's
   * from that country, not from the browser's kept cookies.
   */
  previewCountry?: boolean;
}

/** Set by the kit's own middleware (DevKit.provide), in development only (worker/dev.ts). */
export interface DevKitVariables {
  /** The development kit (worker/dev-kit.ts); undefined on the production worker. */
  devKit?: DevKit;
}

/** What the experiments drew for a visitor: a handler hands it down as one fact. */
export type Arms = Pick<ExperimentVariables, 'variant' | 'flow' | 'experiments' | 'preview'>;

/** Set by the experiments middleware. */
export interface ExperimentVariables {
  variant: VariantAssignment;
  flow: ActiveFlow;
  /** The visitor's experiments and the funnel they make. */
  experiments: VisitorExperiments;
  /**
   * Set on a marketer's preview of a variant, or of a route (`route`, its id) with the split's
   * default variant (worker/preview/preview.ts): the page shows that variant's or route's flow,
   * assigns nothing, and sends nothing to analytics or the ad networks.
   */
  preview?: { variant: string; route?: string };
}

/** What the experiments make of a request (worker/experiments/config/evaluate.ts). */
export interface VisitorExperiments {
  /** At most one per layer, in layer order. */
  assignments: readonly ExperimentAssignment[];
  /** The route's funnel, and the visitor's: the route's with each variant's change on top. */
  base: FunnelShape;
  shape: FunnelShape;
  /**
   * Whether a page of this request may expose the visitor: not a preview, `skip_split`, nor a
   * browser that keeps no cookies (worker/middleware/exposure.ts decides the rest).
   */
  exposable: boolean;
  /** The pins the visitor came with, experiment id → variant. */
  pins: ReadonlyMap<string, string>;
  /** The signed-in account and its pins, where a layer holds a price test; else null. */
  account: VisitorAccount | null;
  /** The holdout's arm a funnel page would expose them to, not counted yet; else null. */
  holdout: HoldoutExposure | null;
}

/** Set by the first touch middleware, on the funnel's pages only. */
export interface FirstTouchVariables {
  /** Where the visit came from, kept from its first page. */
  firstTouch: FirstTouch;
}

/** Set by the funnel config middleware. */
export interface ConfigVariables {
  config: FunnelConfig;
}

/** Set by the in-app browser middleware, on the funnel's pages only. */
export interface InAppVariables {
  /** The ad app whose own browser sent a page request, or null. */
  inApp: InAppBrowser | null;
}

/** Set by the locale middleware. */
export interface LocaleVariables {
  language: string;
  theme: Theme;
}

/** Set by the translations middleware, after the locale's. */
export interface TranslationVariables {
  /** The page's copy in `language`, with any KV override in effect. */
  t: TFunction;
  /** The copy is the Copy area's unpublished draft, which a marketer's preview shows. */
  copyDraft?: true;
}

/** Set by the preview cookie middleware. */
export interface PreviewCookieVariables {
  /**
   * The marketer's preview this browser opened (worker/preview/preview.ts): its cookie verified
   * for the browser's visitor id. Absent when the request brings none, or one not honoured.
   */
  openedPreview?: { variant: string } | { route: PreviewedRoute };
}

/** Set by the request log, first of every request's middleware (worker/app.tsx). */
export interface RequestLogVariables {
  requestId: string;
  /**
   * Fields added to the request's log line (screen, error code, ...): below a handler through
   * its `note` (worker/http/answer.ts).
   */
  logFields: LogFields;
}

/** Set by the route middleware. */
export interface RouteVariables {
  /** The visitor's route for the visit. */
  route: ChosenRoute;
  /** True when the route was chosen on this request, not read from `gf_route`. */
  routeChosen?: boolean;
  /** True when the route is the one a validly signed `gf_route` kept for the visit. */
  routeKept?: boolean;
  /** The visitor's arms of ramped routes, drawn when the route was chosen on this request. */
  routeRamps?: readonly RouteRampArm[];
}

/** Set by the security headers middleware, around every request (worker/app.tsx). */
export interface SecurityHeadersVariables {
  /** The script nonce of this answer's Content-Security-Policy. */
  nonce: string;
}

/** Set by the visitor middleware. */
export interface VisitorVariables {
  visitorId: string;
}

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

/** A request routed: the visitor, their preview, country and config, then their route. */
type RoutedVariables = BaseVariables &
  VisitorVariables &
  PreviewCookieVariables &
  CountryVariables &
  ConfigVariables &
  RouteVariables;

/**
 * What the route middleware may rely on: it runs for the pages, the API and the app pages, where
 * only the pages know the language's first touch and in-app browser.
 */
export type RouteMiddlewareEnv = EnvOf<
  RoutedVariables & Partial<LanguageVariables & VisitVariables>
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
export type ApiEnv = EnvOf<RoutedVariables & ExperimentVariables>;

/**
 * Pages outside the funnel's screens: the app login link, the development test gateway
 * (worker/sub-apps/other-pages.ts). Assigned like a page, without its visit (first touch, ads).
 */
export type OtherPagesEnv = EnvOf<RoutedVariables & LanguageVariables & ExperimentVariables>;

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
