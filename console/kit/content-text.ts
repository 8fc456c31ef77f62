/**
 * The content editor's words for what the worker names by id: sections, languages, themes, and
 * where a text shown comes from.
 */

/**
 * Every section's name, by id. An id may stand on screens of several slots (the heading, the
 * trust labels, the support links): its name says what it is wherever it stands.
 */
const SECTION_NAMES: Record<string, string> = {
  // The landings.
  hero: 'Heading',
  phone_form: 'Phone form',
  illustration: 'Illustration',
  claims: 'Claims',
  story: 'Story',
  stats: 'Numbers',
  features: 'Features',
  feature_grid: 'Feature grid',
  how_it_works: 'How it works',
  reviews: 'Reviews',
  faq: 'Questions',
  guarantee: 'Guarantee',
  picture: 'Picture',
  footer: 'Support links',
  // Sign-up, paywalls, upsells and success.
  heading: 'Title and intro',
  located: 'Number found banner',
  email_form: 'Email form',
  google: 'Continue with Google',
  privacy: 'Privacy note',
  testimonials: 'Testimonials',
  trust: 'Trust labels',
  support: 'Support links',
  countdown: 'Offer countdown',
  callout: 'Trial or PayPal note',
  benefits: 'Benefits',
  plans: 'Plan picker',
  payment: 'Payment form',
  providers: 'Payment provider logos',
  badge: 'Discount badge',
  choice: 'Offer and buy button',
  skip: 'No, thanks',
  download: 'App store buttons',
  qr: 'QR code',
  login_steps: 'How to log in',
  order_summary: 'Order summary',
  app_screens: 'App screenshots',
  // The searching screens.
  ai_badge: 'AI badge',
  search: 'Search progress and Continue',
  // The feature screen.
  users: 'Users count',
  continue: 'Continue button',
  // The declined payment.
  hints: 'What to check',
  try_again: 'Try again button',
};

/** A section's name for a marketer; an id the console does not know yet, as the worker says it. */
export function sectionName(id: string): string {
  return SECTION_NAMES[id] ?? id.replaceAll('_', ' ');
}

/**
 * Why a required section cannot be hidden or removed, by id; the worker's reason otherwise. Said
 * of any screen, as an id such as the heading stands on screens of several slots.
 */
const REQUIRED_REASONS: Record<string, string> = {
  hero: 'The heading is the page’s one title: every landing shows it.',
  phone_form: 'The phone form is what the landing is for: every landing shows it.',
  footer: 'Every landing closes with its support links: visitors must find help.',
  heading: 'The title is the page’s one heading: every screen of this kind shows it.',
  email_form: 'The email form is what the sign-up is for: every sign-up shows it.',
  google: 'Visitors may sign up with Google instead of typing an email: every sign-up offers it.',
  privacy: 'Visitors must learn how their email is used before they give it.',
  plans: 'Visitors must see the plans and prices they pay for.',
  payment: 'The payment form is what the paywall is for: every paywall shows it.',
  choice: 'The offer and its buy button are what the upsell is for.',
  skip: 'Visitors must always be able to decline an upsell.',
  download: 'Buyers must be able to get the app they paid for.',
  qr: 'The QR code opens the app, logged in, from another device.',
  login_steps: 'Buyers must learn how to log in to the app they paid for.',
  order_summary: 'What the visitor was charged must stay on the page.',
  support: 'Visitors must find help and the terms before they sign up or pay.',
  features: 'The list of what the app does is what the feature screen is for.',
  continue: 'Visitors need Continue to move on to the next step.',
  try_again: 'A visitor whose card was declined must be able to try again.',
  search: 'The search shows the number’s details, and its Continue moves the visitor on.',
};

export function requiredReason(id: string, fallback: string | undefined): string {
  return REQUIRED_REASONS[id] ?? fallback ?? 'Every screen of this kind shows it.';
}

export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const THEME_NAMES: Record<string, string> = {
  geozilla: 'Geozilla',
  'family-locator': 'Family Locator',
  brainbloom: 'Brainbloom',
  findo: 'Findo',
};

export function themeName(id: string): string {
  return THEME_NAMES[id] ?? id;
}

/** The names of the screens made of sections, in the pickers: what each is, then its id. */
const SCREEN_NAMES: Record<string, string> = {
  one_pager: 'Landing: classic (one_pager)',
  one_pager_all: 'Landing: all features (one_pager_all)',
  one_pager_ai: 'Landing: AI (one_pager_ai)',
  one_pager_l1: 'Landing: story, long form A (one_pager_l1)',
  one_pager_l2: 'Landing: proof first, long form B (one_pager_l2)',
  signup: 'Sign-up: email or Google (signup)',
  features: 'Features: what the app does (features)',
  signup_testim: 'Sign-up: with testimonials (signup_testim)',
  checkout_v3_tr: 'Checkout: card first, trial note (checkout_v3_tr)',
  checkout_h3_pp: 'Checkout: one-click first, side by side (checkout_h3_pp)',
  checkout_v3_pp: 'Checkout: one-click first, stacked (checkout_v3_pp)',
  checkout_h3_pp_braintree: 'Checkout: PayPal first, Braintree card (checkout_h3_pp_braintree)',
  paycheck1_pr5_h_win: 'Paywall: number found, plans (paycheck1_pr5_h_win)',
  paycheck1_pr5_h_ai: 'Paywall: number found, AI wording (paycheck1_pr5_h_ai)',
  paycheck_combo_3d: 'Paywall: 3-day plan, Apple Pay first (paycheck_combo_3d)',
  upsell_an_private: 'Upsell: anonymous mode and private chat (upsell_an_private)',
  upsell_guide: 'Upsell: safety guide (upsell_guide)',
  searching: 'Searching: progress ring, then map (searching)',
  searching_2: 'Searching: map first (searching_2)',
  searching_ai: 'Searching: AI wording (searching_ai)',
  success: 'Success: get the app (success)',
  payment_declined: 'Payment declined: try again (payment_declined)',
};

/** The slots a new screen is composed for, as a marketer calls the step. */
const SLOT_NAMES: Record<string, string> = {
  landing: 'Landing',
  searching: 'Searching',
  signup: 'Sign-up',
  features: 'Feature list',
  paywall: 'Paywall or checkout',
  upsell: 'Upsell',
  end: 'Success (after paying)',
};

export function slotName(slot: string): string {
  return SLOT_NAMES[slot] ?? `${slot.charAt(0).toUpperCase()}${slot.slice(1)}`;
}

export function screenName(id: string): string {
  return SCREEN_NAMES[id] ?? id;
}

/** A field's id: a copy key in a language, as an HTML id. */
export function copyFieldId(language: string, key: string): string {
  return `content-copy-${language}-${key.replaceAll('.', '-')}`;
}
