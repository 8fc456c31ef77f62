import callingCodes from '../../shared/phone/metadata/calling-codes.json';

/**
 * Each region libphonenumber knows, with its dial code: from the calling codes alone
 * (shared/phone/metadata/), so the form names its countries without the numbering plans, which
 * load when a number is typed (./zone-metadata.ts).
 */
const DIAL_CODES = new Map<string, string>(
  Object.entries(callingCodes.country_calling_codes).flatMap(([dial, countries]) =>
    countries.map((code) => [code, dial] as const),
  ),
);

export interface CountryOption {
  /** ISO 3166-1 alpha-2 code, as libphonenumber names regions. */
  code: string;
  /** The country's name in the page language. */
  name: string;
  /** Dial code without the +. */
  dial: string;
}

/**
 * Every region libphonenumber knows, named in the page language and sorted the way a reader of
 * that language expects. Computed on the server; the island gets the list as plain props.
 */
export function countryOptions(language: string): CountryOption[] {
  let options = byLanguage.get(language);
  if (!options) {
    options = buildOptions(language);
    byLanguage.set(language, options);
  }
  return options;
}

// The same list serves every visitor of a language (nothing in it is about the visitor), so it
// is built once per language and isolate rather than on every landing request.
const byLanguage = new Map<string, CountryOption[]>();

function buildOptions(language: string): CountryOption[] {
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator([language, 'en']);
  return [...DIAL_CODES]
    .map(([code, dial]) => ({ code, name: names.of(code) ?? code, dial }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** The text of a country's option in the list: its name and dial code. */
export function optionText(option: CountryOption): string {
  return `${option.name} (+${option.dial})`;
}

/**
 * The options the server rendered into the <select> with this id, read back in the browser
 * before hydration. The phone form's first client render must repeat the server's list exactly;
 * reading it from the page avoids shipping the same ~250 names a second time as island props.
 * Null on the server, or when there is no such select (the island rendered in the browser only).
 */
export function serverRenderedOptions(selectId: string): CountryOption[] | null {
  if (typeof document === 'undefined') return null;
  const select = document.getElementById(selectId);
  if (!(select instanceof HTMLSelectElement) || select.options.length === 0) return null;
  const options: CountryOption[] = [];
  for (const option of select.options) {
    const code = option.value;
    const dial = DIAL_CODES.get(code);
    if (dial === undefined) return null;
    const text = option.text;
    options.push({ code, dial, name: text.slice(0, text.lastIndexOf(` (+${dial})`)) });
  }
  return options;
}
