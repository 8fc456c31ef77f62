import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';
import type { RefusedEmail } from '../shared/api/form-sign-up';
import type { Brand } from '../shared/brand';
import type { ReviewRating } from '../shared/config/content';
import type { DeclineClass } from '../shared/decline-class';
import type { InAppBrowser } from '../shared/in-app-browser';
import type { PostedPhone, RefusedPhone } from '../shared/phone/posted-phone';
import type { PlanFamilyId } from '../shared/plans/catalogue';
import type { Currency } from '../shared/plans/currency';
import type { OfferClock } from '../shared/plans/offer-clock';
import type { Answer, AnswerProblem } from '../shared/quiz/answers';
import type { Question } from '../shared/quiz/question';
import type { DrawnScreen, ScreenId } from '../shared/screens';
import type { Theme } from '../shared/theme';
import type { Arrangement } from './kit/arrangement';

export interface ScreenProps {
  screen: DrawnScreen;
  t: TFunction;
  /** Where the Continue form posts: this screen's path with the visitor's query string. */
  continueAction: string;
  /** Next screen's URL, or null on the last screen of the flow. */
  next: string | null;
  /** ISO country of the visitor, or null when unknown (phone field default, currency). */
  country: string | null;
  /**
   * The currency the visitor pays in (worker/funnel/locale.ts: their country by the
   * config's tables); absent, the built-in table's for their country.
   */
  currency?: Currency;
  language: string;
  theme: Theme;
  /**
   * Who the page speaks for (shared/brand.ts): its name, support address, legal and store
   * links. Screens name no brand of their own.
   */
  brand: Brand;
  /** Name of the visitor's flow (SPEC.md §2). */
  flow: string;
  /** The flow's sign-up screen with the visitor's query, or null when the flow has none. */
  signUpAt?: string | null;
  /** False outside production, where test switches apply (SPEC.md §5 dev email shortcuts). */
  production?: boolean;
  /** The visitor uuid (SPEC.md §4), sent as user_uuid at sign-up. */
  visitorId: string;
  /** The visitor's landing type (SPEC.md §4 split test), sent as landing_type at sign-up. */
  landingType: string;
  /** The worker's Google Identity Services client id; empty when none is configured. */
  googleClientId: string;
  /**
   * Two-letter country of the Stripe account (worker variable STRIPE_ACCOUNT_COUNTRY), which
   * Stripe's payment request for Apple Pay and Google Pay takes; unset means 'US'.
   */
  stripeAccountCountry?: string;
  /**
   * Whether checkouts offer PayPal: only where the deployment lists it in PAYMENT_PROVIDERS
   * (SPEC.md §9: the pay-pal flag is false). Unset: no PayPal.
   */
  paypal?: boolean;
  /**
   * Whether the receipt will carry the subscriber's manage link (SUBSCRIBER_LINK_KEY configured,
   * docs/payments.md "The subscriber's page"): the checkout's terms then say the subscription is
   * cancelled online too, as California's automatic renewal law asks of what is bought online.
   * Unset: the app and the support address only.
   */
  cancelOnline?: boolean;
  /**
   * Whether the worker draws the located area with Google's static map (STATIC_MAPS_API_KEY,
   * worker/area-map/); unset, the searching screens keep their drawn map.
   */
  staticMap?: boolean;
  /** A landing answering its phone form's refused no-script post (worker/routes/screens/posted-forms.ts). */
  refusedPhone?: RefusedPhone;
  /** A signup screen answering its email form's refused no-script post (worker/routes/screens/posted-forms.ts). */
  refusedEmail?: RefusedEmail;
  /** A searching screen after the landing's no-script post: the number it accepted. */
  postedPhone?: PostedPhone;
  /** The ad app whose own browser shows the page (shared/in-app-browser.ts), or null. */
  inApp?: InAppBrowser | null;
  /**
   * The main plans the visitor's route offers on paywalls and checkouts, the first preselected
   * (worker/routing/); absent, each screen offers its own. Catalogue families only, so the
   * price shown is the price charged.
   */
  routePlans?: readonly PlanFamilyId[];
  /** The upsell's plans the route or an upsell price test names; absent, the screen's own. */
  upsellPlans?: readonly PlanFamilyId[];
  /** The guide's plan the route or a price test names; absent, the screen's own. */
  guidePlans?: readonly PlanFamilyId[];
  /**
   * The visitor's offer countdown (worker/checkout/offer.ts): its seconds left, ended
   * (the regular prices apply), or off (the route or variant shows none, the offer never ends).
   * Absent: off.
   */
  offerClock?: OfferClock;
  /**
   * The plan a quiz answer chose (shared/quiz/question.ts a choice's `plan`), preselected where
   * the screen offers it; absent, the offer's own first.
   */
  preselected?: PlanFamilyId;
  /** False: the route or variant turned struck prices and savings off. Absent: on. */
  anchors?: boolean;
  /**
   * A marketer's arrangement of this screen's sections (its content, worker/content/); absent,
   * the screen as code composes it (screens/kit/composition.tsx draws it).
   */
  arrangement?: Arrangement | null;
  /**
   * 'Payment declined': the class of the decline its address names (a checked query parameter,
   * shared/decline-class.ts), which picks its advice; absent, the advice for any decline.
   */
  declineClass?: DeclineClass;
  /**
   * 'Payment declined': the worker offers the other card provider's form, once, after a decline
   * that provider may approve (worker/provider-routing/provider-pin.ts); absent or false, no offer.
   */
  otherProviderOffered?: boolean;
  /**
   * An upsell opened again after its provider kept failing and the visitor took the other one
   * (CARD_AGAIN_QUERY): the card on file cannot pay there, so the card is typed again.
   */
  cardAgain?: boolean;
  /** The picture a marketer's content shows in the screen's `picture` section; else none. */
  picture?: ShownPicture | null;
  /** The rating a marketer's content gives the screen's reviews; else none, never one of code's. */
  rating?: ReviewRating | null;
  /** Its copy says the visitor's quiz answers (worker/content/screen-content.ts): drawn for them alone. */
  personal?: true;
  /** A question screen's question, with the visitor's kept answer or the problem of a refused one. */
  asked?: AskedQuestion;
}

/** A quiz's question as its screen draws it (screens/quiz/index.tsx). */
export interface AskedQuestion {
  question: Question;
  /** What the visitor answered before, kept for the visit (a reload or Back shows it). */
  answer?: Answer;
  /** Why the answer just posted was refused; nothing of it was kept. */
  problem?: AnswerProblem;
  /** A result screen's lines the visitor's answers meet, in the page's language, filled. */
  lines?: readonly string[];
}

/** A library picture as a page shows it: its id and size, and its alt text in the page's language. */
export interface ShownPicture {
  id: string;
  width: number;
  height: number;
  alt: string;
}

export interface ScreenDefinition {
  Component: ComponentType<ScreenProps>;
  /** Where Continue leads when the screen is opened outside the visitor's flow. */
  offFlowNext: ScreenId | null;
  /**
   * Continue leads back to the visitor's flow's paywall (a composed one at its own path), and to
   * offFlowNext only when their flow has none: the declined payment's Try again.
   */
  backToPaywall?: boolean;
  /** Images the screen shows, fetched ahead while the visitor is on the screen before it. */
  images?: readonly string[];
  /**
   * The CSS of the screen's area, inlined in its page after the shared rules; set here, the
   * screen's own rules, which the registry adds after its area's.
   */
  css?: string;
  /**
   * SPEC.md §2 Layout: the screen's Continue is pinned to the bottom (screens/kit/BottomButton),
   * so its page gets 88px bottom padding instead of 16px.
   */
  bottomButton?: true;
  /** A landing whose Continue form is the phone form: the worker checks what it posts. */
  phoneForm?: true;
  /** A signup screen: the worker creates the account its email form posts without script. */
  signUpForm?: true;
  /** A screen that shows the number the landing's form posted without script. */
  takesPostedPhone?: true;
  /** A quiz's question: the worker checks the answer its form posts and keeps it for the visit. */
  questionForm?: true;
}

/** One area's screens (landing, plans, ...); the registry joins them. */
export type AreaScreens = Partial<Record<DrawnScreen, ScreenDefinition>>;
