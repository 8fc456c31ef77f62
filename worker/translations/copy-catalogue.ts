import { EN_AREAS, LANGUAGES } from '../../locales';
import type { CopyKey, CopyState } from '../../shared/console-api/copy';
import { shippedDictionary } from '../i18n';
import { englishSource, flattenDictionary } from './check';
import { loadEveryShippedText, type ShippedTextSource } from './source';

/**
 * What the console's key browser lists: every key of the bundled files (each language's plural
 * forms included), the English it translates, each language's shipped text, and the areas with
 * the screens they show on. Built once per isolate, once every language's text is loaded: it
 * depends on the deploy alone.
 */

/** Where each locale area's copy shows, for a marketer who knows the screens, not the files. */
const AREA_SHOWS: Record<string, string> = {
  landing: 'The landing screens (phone number, claims, features, reviews)',
  searching: 'The searching screen (the lookup animation and the map)',
  signup: 'The sign-up screen',
  plans: 'The paywall, plans and checkout screens, and the upsells',
  after: 'After payment: success, declined and the app login',
  consent: 'The cookie banner',
  kit: 'Parts every screen shares: email field, progress, trust badges, store links',
  common: 'Screen titles and leads, buttons and error pages every screen shares',
  errors: 'The failure messages a visitor can see on any screen',
  i18n: 'Shared plural patterns (days of a trial, counts)',
};

/** A language's name in English (`de` → German), as the console and the validator say it. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The area file whose English holds a key's first part. */
function areaOf(first: string): string {
  return Object.keys(EN_AREAS).find((id) => Object.hasOwn(EN_AREAS[id]!, first)) ?? 'common';
}

function buildCatalogue(): Pick<CopyState, 'languages' | 'areas' | 'keys'> {
  const flat = Object.fromEntries(
    LANGUAGES.map((code) => [code, flattenDictionary(shippedDictionary(code) ?? {})]),
  );
  const all = new Set(LANGUAGES.flatMap((code) => [...flat[code]!.keys()]));
  const keys: CopyKey[] = [];
  for (const key of all) {
    const bundled: Record<string, string> = {};
    let english: string | undefined;
    for (const code of LANGUAGES) {
      const source = englishSource(code, key);
      if (source === undefined) continue;
      english ??= source;
      bundled[code] = flat[code]!.get(key) ?? '';
    }
    if (english === undefined) continue;
    keys.push({ key, area: areaOf(key.split('.')[0]!), english, bundled });
  }
  const areaIds = Object.keys(EN_AREAS).filter((id) => keys.some((k) => k.area === id));
  return {
    languages: LANGUAGES.map((code) => ({ code, name: languageName(code) })),
    areas: areaIds.map((id) => ({ id, shows: AREA_SHOWS[id] ?? '' })),
    keys,
  };
}

let catalogue: ReturnType<typeof buildCatalogue> | undefined;

/**
 * The catalogue, after loading every language's shipped text; one whose load failed (logged)
 * shows its texts empty, and the catalogue is built again at the next call.
 */
export async function copyCatalogue(shipped: ShippedTextSource) {
  if (catalogue) return catalogue;
  const whole = await loadEveryShippedText(shipped);
  const built = buildCatalogue();
  if (whole) catalogue = built;
  return built;
}
