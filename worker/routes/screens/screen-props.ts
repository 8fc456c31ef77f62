import type { PageState } from '../../../islands/protocol';
import type { AskedQuestion, ScreenProps } from '../../../screens/types';
import { heatmapExcluded } from '../../../shared/analytics/heatmap';
import { COLLECTOR_PATH, type PageVitals, type PixelIds } from '../../../shared/analytics/tracking';
import type { PlanFamilyId } from '../../../shared/plans/catalogue';
import { visitorCurrency } from '../../../shared/plans/currency';
import { isSellingScreen } from '../../../shared/plans/screen-offers';
import { fillAnswers } from '../../../shared/quiz/answer-text';
import { type Answer, analyticsAnswers, checkAnswer } from '../../../shared/quiz/answers';
import { takesAnswer, textIn } from '../../../shared/quiz/question';
import { meets } from '../../../shared/quiz/walk';
import { drawsAreaMaps } from '../../area-map/area-map-cookie';
import { heatmapPage } from '../../attribution/tracking-data';
import { exposureTicket } from '../../collector/exposure-ticket';
import { pageVitals, vitalsSampleRate } from '../../collector/vitals-sample';
import { askedByKey, shownContent } from '../../content/screen-content';
import type { Bindings } from '../../env';
import { isProduction } from '../../environment';
import { flowSignUp } from '../../funnel/flow';
import { requestBrand } from '../../funnel/locale';
import { brandedTranslator } from '../../i18n';
import { offersPayPal, stripeAccountCountry } from '../../payment-providers';
import { cookieKey } from '../../request/cookies';
import type { Attribution } from '../../request/envs';
import { armsCountedOn, mayExposeHere } from '../../request/visit';
import { subscriberLinkKey } from '../../subscriber-links/link-key';
import {
  cardAgainIn,
  declineClassIn,
  type PageVisit,
  queryOf,
  type Refused,
  type Shown,
} from './page-visit';

/**
 * What a screen is drawn with: the props the server renders it from (screenProps) and the page
 * state its islands and tracker read (pageState).
 */

/** A screen as the visit's visitor sees it: where it leads, what it knows, what it offers. */
export function screenProps(
  visit: PageVisit,
  { ref, screen }: Shown,
  next: string | null,
  refused: Refused | undefined,
): ScreenProps {
  const { facts, env } = visit;
  const experiments = facts.arms.experiments;
  // A marketer's content for this screen, as the visitor's experiments and route show it: its
  // sections' arrangement and its copy (a composed screen's own, by the id the flow names).
  const variant = experiments.shape.content?.[ref] ?? null;
  const { answers } = visit.carried;
  const shown = shownContent(facts.config.content, ref, facts.language, facts.t, variant, answers);
  const brand = requestBrand(facts.config, facts.theme);
  return {
    screen,
    t: brandedTranslator(shown.t, brand),
    brand,
    arrangement: shown.arrangement,
    picture: shown.picture,
    rating: shown.rating,
    personal: shown.personal,
    continueAction: `/${ref}${queryOf(visit.url)}`,
    next,
    country: facts.country,
    currency: visitorCurrency(facts.config.routing, experiments.shape, facts.country),
    language: facts.language,
    theme: facts.theme,
    flow: facts.arms.flow.name,
    signUpAt: signUpAt(visit, queryOf(visit.url)),
    // Real pixel events only in production, not merely outside development (environment.ts).
    production: isProduction(env),
    visitorId: facts.visitor.id,
    landingType: facts.arms.variant.landingType,
    googleClientId: env.GOOGLE_CLIENT_ID ?? '',
    stripeAccountCountry: stripeAccountCountry(env.STRIPE_ACCOUNT_COUNTRY),
    paypal: offersPayPal(env),
    staticMap: drawsAreaMaps(env),
    cancelOnline: subscriberLinkKey(env).ok,
    refusedPhone: refused?.phone,
    refusedEmail: refused?.email,
    postedPhone: visit.carried.postedPhone,
    inApp: facts.visitor.inApp,
    routePlans: experiments.shape.plans ?? undefined,
    upsellPlans: experiments.shape.upsellPlans ?? undefined,
    guidePlans: experiments.shape.guidePlans ?? undefined,
    declineClass: screen === 'payment_declined' ? declineClassIn(visit.url) : undefined,
    otherProviderOffered: visit.carried.otherProviderOffered,
    cardAgain: cardAgainIn(visit.url),
    offerClock: visit.carried.offerClock,
    anchors: experiments.shape.anchors !== false,
    asked: askedOn(visit, ref, refused),
    preselected: isSellingScreen(screen) ? answeredPlan(visit) : undefined,
  };
}

/**
 * The plan the visitor's latest answer with one chose (a choice's `plan`), in the order of their
 * flow; none where no answer names a plan.
 */
function answeredPlan(visit: PageVisit): PlanFamilyId | undefined {
  const answers = visit.carried.answers;
  const questions = visit.facts.config.content.questions;
  if (!answers || !questions) return undefined;
  for (const ref of [...visit.facts.arms.flow.screens].reverse()) {
    const asked = Object.hasOwn(questions, ref) ? questions[ref] : undefined;
    if (!asked || !('choices' in asked) || !('key' in asked)) continue;
    const given = answers[asked.key];
    const plan = asked.choices.find((choice) => choice.value === given)?.plan;
    if (plan !== undefined) return plan;
  }
  return undefined;
}

/**
 * A question screen's question in the content, the visitor's kept answer if it still is one
 * (the question may have changed since it was given), or the problem of the one just refused.
 */
function askedOn(
  visit: PageVisit,
  ref: string,
  refused: Refused | undefined,
): AskedQuestion | undefined {
  const questions = visit.facts.config.content.questions;
  const question = questions && Object.hasOwn(questions, ref) ? questions[ref] : undefined;
  if (question === undefined) return undefined;
  if (refused?.question) return { question, problem: refused.question };
  if (question.kind === 'result') {
    const answers = visit.carried.answers ?? {};
    const { content } = visit.facts.config;
    const language = visit.facts.language;
    const lines = question.lines
      .filter((line) => line.when === undefined || meets(line.when, answers))
      .map((line) =>
        fillAnswers(textIn(line.text, language), answers, askedByKey(content), language),
      );
    return { question, lines };
  }
  if (!takesAnswer(question)) return { question };
  const kept = visit.carried.answers?.[question.key];
  return kept !== undefined && checkAnswer(question, postedOf(kept)).ok
    ? { question, answer: kept }
    : { question };
}

/** A kept answer as its form would post it again. */
function postedOf(answer: Answer): string[] {
  return Array.isArray(answer) ? [...answer] : [String(answer)];
}

/** The flow's sign-up screen with the visitor's query, as every move keeps it (SPEC.md §2). */
function signUpAt(visit: PageVisit, search: string): string | null {
  const ref = flowSignUp(visit.facts.arms.flow, visit.facts.config.content);
  return ref === null ? null : `/${ref}${search}`;
}

const NO_AD_TOOLS: PixelIds = {
  meta: null,
  tiktok: null,
  googleAds: null,
  appsflyer: null,
  clarity: null,
};

/**
 * What the page hands the ad tools and the tracker. A marketer's preview (worker/preview/preview.ts)
 * is no visit: no pixel loads (so no consent banner asks either) and the tracker sends nothing,
 * nor does any page while ANALYTICS is 'off'.
 */
export function pageAttribution(attribution: Attribution, preview: boolean, env: Bindings) {
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

/**
 * The page's state for its islands and tracker (islands/protocol.ts PageState), read from the
 * page's visit: nearly every variable the page middleware set goes into it.
 */
export function pageState(
  visit: PageVisit,
  page: {
    shown: Shown;
    next: string | null;
    account: PageState['account'];
    collector: string | null;
    attribution: Attribution;
    /** The page view's vitals, when it is in the sample (pageVitalsOf). */
    vitals?: PageVitals;
    /** The page's exposure ticket, when it may expose its visitor (pageExposureTicket). */
    exposureTicket?: string;
  },
): PageState {
  const { facts } = visit;
  const { shown, attribution } = page;
  // The analytics name a composed screen by the screen in code it behaves as (SPEC.md §3).
  const { screen } = shown;
  const flow = facts.arms.flow.name;
  const variant = facts.arms.variant.key;
  const route = facts.route.id;
  const source = facts.visitor.firstTouch.source;
  const configVersion = facts.config.version;
  const answers = visit.carried.answers;
  const analytics = answers && analyticsAnswers(answers, askedByKey(facts.config.content));
  return {
    screen,
    next: page.next,
    ...(analytics && Object.keys(analytics).length > 0 ? { answers: analytics } : {}),
    flow,
    variant,
    configVersion,
    route,
    source,
    inApp: facts.visitor.inApp,
    account: page.account,
    analytics: {
      visitorId: facts.visitor.id,
      // Real events only in production: a staging worker's carry `_test`, like development's.
      production: isProduction(visit.env),
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
        assignments: facts.arms.experiments.assignments,
      }),
      ...(page.vitals ? { vitals: page.vitals } : {}),
    },
    ...(page.exposureTicket ? { exposureTicket: page.exposureTicket } : {}),
  };
}

/**
 * The page's exposure ticket (worker/collector/exposure-ticket.ts), when it may expose its
 * visitor (mayExposeHere): its script sends it back, and the exposures count only then. Without
 * a signing key (outside development, unset) none, and its exposures stay unconfirmed.
 */
export async function pageExposureTicket(
  visit: PageVisit,
  now: number,
): Promise<string | undefined> {
  const { facts, env } = visit;
  const key = cookieKey(env);
  if (key === null) return undefined;
  if (!mayExposeHere(facts.config, visit.path, facts.arms.experiments, facts.routeRamps)) {
    return undefined;
  }
  return exposureTicket(key, facts.visitor.id, now);
}

/**
 * The page's vitals, when the worker draws this page view into the sample (a preview or a page
 * without analytics never): its arms and its ticket (worker/collector/vitals-sample.ts).
 */
export async function pageVitalsOf(
  visit: PageVisit,
  collector: string | null,
  now: number,
): Promise<PageVitals | undefined> {
  if (collector === null) return undefined;
  const { facts, env } = visit;
  const draw = { rate: vitalsSampleRate(env), key: cookieKey(env), now };
  return pageVitals(draw, facts.visitor.id, () =>
    armsCountedOn(facts.arms.experiments, facts.config, visit.path),
  );
}
