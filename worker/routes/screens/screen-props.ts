import type { ScreenProps } from '../../../screens/types';
import { drawsAreaMaps } from '../../area-map/area-map-cookie';
import { shownContent } from '../../content/screen-content';
import { isProduction } from '../../environment';
import { requestBrand } from '../../funnel/brand';
import { flowSignUp } from '../../funnel/flow';
import { visitorCurrency } from '../../funnel/visitor-currency';
import { brandedTranslator } from '../../i18n';
import { offersPayPal } from '../../middleware/payment-providers';
import { stripeAccountCountry } from '../../stripe-account-country';
import { declineClassIn, type PageVisit, queryOf, type Refused, type Shown } from './page-visit';

/** A screen as the visit's visitor sees it: where it leads, what it knows, what it offers. */
export function screenProps(
  visit: PageVisit,
  { ref, screen }: Shown,
  next: string | null,
  refused: Refused | undefined,
): ScreenProps {
  const { vars, env } = visit;
  const experiments = vars.experiments;
  // A marketer's content for this screen, as the visitor's experiments and route show it: its
  // sections' arrangement and its copy (a composed screen's own, by the id the flow names).
  const variant = experiments.shape.content?.[ref] ?? null;
  const shown = shownContent(vars.config.content, ref, vars.language, vars.t, variant);
  const brand = requestBrand(vars.config, vars.theme);
  return {
    screen,
    t: brandedTranslator(shown.t, brand),
    brand,
    arrangement: shown.arrangement,
    picture: shown.picture,
    rating: shown.rating,
    continueAction: `/${ref}${queryOf(visit.url)}`,
    next,
    country: vars.country,
    currency: visitorCurrency(vars.config.routing, experiments.shape, vars.country),
    language: vars.language,
    theme: vars.theme,
    flow: vars.flow.name,
    signUpAt: signUpAt(visit, queryOf(visit.url)),
    // Real pixel events only in production, not merely outside development (environment.ts).
    production: isProduction(env),
    visitorId: vars.visitorId,
    landingType: vars.variant.landingType,
    googleClientId: env.GOOGLE_CLIENT_ID ?? '',
    stripeAccountCountry: stripeAccountCountry(env.STRIPE_ACCOUNT_COUNTRY),
    paypal: offersPayPal(env),
    staticMap: drawsAreaMaps(env),
    refusedPhone: refused?.phone,
    refusedEmail: refused?.email,
    postedPhone: visit.carried.postedPhone,
    inApp: vars.inApp,
    routePlans: experiments.shape.plans ?? undefined,
    upsellPlans: experiments.shape.upsellPlans ?? undefined,
    guidePlans: experiments.shape.guidePlans ?? undefined,
    declineClass: screen === 'payment_declined' ? declineClassIn(visit.url) : undefined,
    offerClock: visit.carried.offerClock,
    anchors: experiments.shape.anchors !== false,
  };
}

/** The flow's sign-up screen with the visitor's query, as every move keeps it (SPEC.md §2). */
function signUpAt(visit: PageVisit, search: string): string | null {
  const ref = flowSignUp(visit.vars.flow, visit.vars.config.content);
  return ref === null ? null : `/${ref}${search}`;
}
