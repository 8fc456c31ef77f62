/**
 * A copy key in a marketer's words, for the review and History (docs/marketers.md): a screen's
 * own title is its "Headline" and its lead the "Intro"; any other key is its words after the
 * area (`landing.reviews.title` → "Reviews title"). The key itself stays beside it as detail.
 */

/** A screen's own keys (`screens.<id>.<field>`) by field. */
const SCREEN_FIELDS: Record<string, string> = {
  title: 'Headline',
  lead: 'Intro',
  badge: 'Badge',
  subtitle: 'Subheadline',
};

/** A name of the document in words: `compact_title`, `defaultVariant` → "default variant". */
export const words = (segment: string) =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase();

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What a marketer calls the text at `key`: "Headline", "Reviews title". */
export function copyKeyLabel(key: string): string {
  const segments = key.split('.');
  if (segments[0] === 'screens' && segments.length === 3) {
    const field = segments[2] ?? '';
    return SCREEN_FIELDS[field] ?? capital(words(field));
  }
  const rest = segments.length > 1 ? segments.slice(1) : segments;
  return capital(rest.map(words).join(' '));
}
