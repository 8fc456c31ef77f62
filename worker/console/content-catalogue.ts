import { EN, LANGUAGES } from '../../locales';
import { COMPOSED_SCREENS } from '../../screens/composed';
import { aScreenOf, type ComposedDefinition } from '../../screens/kit/arrangement';
import type { CopyDocument } from '../../shared/config/copy';
import type {
  ComposedScreenChoice,
  ContentCatalogue,
  SectionChoice,
} from '../../shared/console-api/content';
import { THEMES } from '../../shared/theme';
import { directionOf, shippedDictionary } from '../i18n';
import { flattenDictionary } from '../translations/check';
import { loadEveryShippedText, type ShippedTextSource } from '../translations/source';

/**
 * What the content editor offers (shared/console-api/content.ts): each composed screen with the
 * sections its slot may show and the copy keys each reads there, and every language's text of
 * those keys as a page shows it without content. The screens and keys depend on the bundle
 * alone and are worked out once per isolate; the live copy overrides are laid over per call.
 */

const englishKeys = [...flattenDictionary(EN).keys()];

/** The bundled English keys a section's copy pattern covers on `screen` (screens/kit/arrangement.ts). */
function keysOf(patterns: readonly string[], screen: string): string[] {
  const keys = new Set<string>();
  for (const pattern of patterns) {
    const own = pattern.replace('{screen}', screen);
    for (const key of englishKeys) {
      if (own.endsWith('.') ? key.startsWith(own) : key === own) keys.add(key);
    }
  }
  return [...keys];
}

function screenChoice(id: string, { slot, composition, catalogue }: ComposedDefinition) {
  const sections: Record<string, SectionChoice> = {};
  for (const [kind, section] of Object.entries(catalogue)) {
    sections[kind] = {
      id: kind,
      required: section.required === true,
      ...(section.required
        ? {
            requiredReason: `Every ${aScreenOf(slot).replace(/^an? /, '')} must show it: a publish without it is refused.`,
          }
        : {}),
      maxChars: section.maxChars,
      keys: keysOf(section.copy, id),
    };
  }
  const choice: ComposedScreenChoice = {
    id,
    slot,
    composition: composition.sections.map((section) => section.kind),
    sections,
  };
  return choice;
}

const SCREENS = Object.entries(COMPOSED_SCREENS).flatMap(([id, definition]) =>
  definition ? [screenChoice(id, definition)] : [],
);

/** Every key some section of some composed screen reads. */
const READ_KEYS = new Set(
  SCREENS.flatMap((screen) => Object.values(screen.sections).flatMap((s) => s.keys)),
);

/** Each language's shipped text of the keys the sections read. */
function shippedTexts(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    LANGUAGES.map((language) => {
      const texts = flattenDictionary(shippedDictionary(language) ?? {});
      return [language, Object.fromEntries([...texts].filter(([key]) => READ_KEYS.has(key)))];
    }),
  );
}

/** Built once every language's shipped text is loaded (a failed load, logged, shows none). */
let wholeShippedTexts: Record<string, Record<string, string>> | undefined;

/** The catalogue, with `liveCopy` (the Copy area's overrides in effect) over the shipped texts. */
export async function contentCatalogue(
  liveCopy: CopyDocument,
  source: ShippedTextSource,
): Promise<ContentCatalogue> {
  let shipped = wholeShippedTexts;
  if (!shipped) {
    const whole = await loadEveryShippedText(source);
    shipped = shippedTexts();
    if (whole) wholeShippedTexts = shipped;
  }
  const texts: Record<string, Record<string, string>> = {};
  const overridden: Record<string, string[]> = {};
  for (const language of LANGUAGES) {
    const own = Object.entries(liveCopy[language] ?? {}).filter(([key]) => READ_KEYS.has(key));
    texts[language] = { ...shipped[language], ...Object.fromEntries(own) };
    overridden[language] = own.map(([key]) => key);
  }
  return {
    screens: SCREENS,
    languages: [...LANGUAGES],
    rtl: LANGUAGES.filter((language) => directionOf(language) === 'rtl'),
    themes: [...THEMES],
    texts,
    overridden,
  };
}
