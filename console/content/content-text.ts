/**
 * The content editor's words for what the worker names by id: sections, languages, themes, and
 * where a text shown comes from.
 */

const SECTION_NAMES: Record<string, string> = {
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
};

/** A section's name for a marketer; an id the console does not know yet, as the worker says it. */
export function sectionName(id: string): string {
  return SECTION_NAMES[id] ?? id.replaceAll('_', ' ');
}

/** Why a required section cannot be hidden or removed, by id; the worker's reason otherwise. */
const REQUIRED_REASONS: Record<string, string> = {
  hero: 'The heading is the page’s one title: every landing shows it.',
  phone_form: 'The phone form is what the landing is for: every landing shows it.',
  footer: 'Every landing closes with its support links: visitors must find help.',
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

/** The screen ids' names in the picker. */
const SCREEN_NAMES: Record<string, string> = {
  one_pager: 'Landing: classic (one_pager)',
  one_pager_all: 'Landing: all features (one_pager_all)',
  one_pager_ai: 'Landing: AI (one_pager_ai)',
  one_pager_l1: 'Landing: story, long form A (one_pager_l1)',
  one_pager_l2: 'Landing: proof first, long form B (one_pager_l2)',
};

export function screenName(id: string): string {
  return SCREEN_NAMES[id] ?? id;
}

/** A field's id: a copy key in a language, as an HTML id. */
export function copyFieldId(language: string, key: string): string {
  return `content-copy-${language}-${key.replaceAll('.', '-')}`;
}
