import { isSellingScreen } from './plans/screen-offers';

/**
 * What a marketer's copy may not say, whichever tool sends it (the console's Copy and content
 * areas, `npm run translations`, `npm run content`; the worker checks it again on publish), and
 * with it every other text a visitor reads that a marketer writes (visitorTextProblems: brands,
 * pictures' alt texts, ratings' sources, the save offer):
 *
 * - an amount of money typed by hand ("$0.01 ($6.99)", "6,99 €", "USD 5") in the copy of a
 *   screen that sells: the price a visitor reads must be the one charged, so only the
 *   catalogue's placeholders ({{price}}, {{introPrice}}, {{amount}}) may state one;
 * - a saving typed by hand ("Save 70%") where the text says it through {{percent}}, which the
 *   catalogue works out from the amounts charged (shared/plans/anchors.ts);
 * - the bidirectional override and isolate characters (U+202A–U+202E, U+2066–U+2069), in any
 *   text: they reorder what a visitor sees against what the text holds, so a price, a renewal
 *   term or a link could read otherwise than it is checked.
 */

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

/** The bidirectional control in `text`, named, or null. */
export function bidiProblem(text: string): string | null {
  const found = BIDI_CONTROLS.exec(text)?.[0];
  if (found === undefined) return null;
  const code = found.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
  return `must not hold the bidirectional control character U+${code}: it reorders what the visitor reads`;
}

/** Signs of money written beside a number, in the currencies a visitor may see and more. */
const SIGNS = '$€£¥₹₽₺₩₪₫฿₴₦₱₸₼₾₡₲₵';
/** A number as a price is written: digits in any script, grouped or with decimals. */
const NUMBER = String.raw`\p{Nd}+(?:[.,'’\u00a0\u202f ]\p{Nd}+)*`;
const SPACE = String.raw`[\s\u00a0\u202f]*`;

/** ISO 4217 codes, as the runtime knows them (every V8 does), else the ones the funnel sells in. */
function currencyCodes(): string[] {
  const known = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const codes = known ? known('currency') : [];
  return codes.length > 0
    ? codes
    : ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'BRL', 'MXN', 'INR', 'JPY', 'PLN', 'TRY', 'CHF', 'SEK'];
}

let moneyPattern: RegExp | undefined;

function money(): RegExp {
  if (moneyPattern) return moneyPattern;
  const sign = `[${SIGNS.replace(/[$]/g, '\\$')}]`;
  const code = String.raw`(?<![\p{L}])(?:${currencyCodes().join('|')}|zł|kr|Kč|Ft|lei|руб|грн|ريال|درهم)(?![\p{L}])`;
  const unit = `(?:${sign}|${code})`;
  moneyPattern = new RegExp(`${unit}${SPACE}${NUMBER}|${NUMBER}${SPACE}${unit}`, 'u');
  return moneyPattern;
}

/** The text without its placeholders, which the catalogue fills. */
function withoutPlaceholders(text: string): string {
  return text.replace(/\{\{[^}]*\}\}/g, '');
}

/** The amount typed by hand in `text`, quoted, or null. */
export function handTypedPriceProblem(text: string): string | null {
  const found = money().exec(withoutPlaceholders(text))?.[0];
  if (found === undefined) return null;
  return `must not state a price by hand ("${found.trim()}"): a selling screen's prices come from the catalogue, through its placeholders`;
}

/** A percentage typed by hand in a text whose English says it through {{percent}}, or null. */
export function typedPercentProblem(english: string, text: string): string | null {
  if (!/\{\{\s*percent\b/.test(english)) return null;
  const found = new RegExp(`${NUMBER}${SPACE}[%٪]`, 'u').exec(withoutPlaceholders(text))?.[0];
  if (found === undefined) return null;
  return `must not state a saving by hand ("${found.trim()}"): use {{percent}}, worked out from the prices charged`;
}

/**
 * Whether a copy key is read by a screen that sells (its plans, the paywalls', checkouts' and
 * upsells' own texts, the offer countdown), where no price may be typed by hand.
 */
export function sellingCopyKey(key: string): boolean {
  if (key.startsWith('plans.') || key.startsWith('kit.offer')) return true;
  const screen = /^screens\.([^.]+)\./.exec(key)?.[1];
  return screen !== undefined && isSellingScreen(screen);
}

/**
 * The rules above for a text a visitor reads that is no copy key (a brand's name and support
 * address, a picture's alt text, a rating's source, a save offer's words): no bidirectional
 * control, and where a price could be read as the one charged (`selling`), none typed by hand.
 */
export function visitorTextProblems(text: string, options: { selling: boolean }): string[] {
  const problems = [bidiProblem(text)];
  if (options.selling) problems.push(handTypedPriceProblem(text));
  return problems.filter((problem): problem is string => problem !== null);
}

/** Every problem of the rules above with one text at `key`; `selling`: the screen sells. */
export function copyRuleProblems(
  key: string,
  english: string,
  text: string,
  selling = sellingCopyKey(key),
): string[] {
  const percent = typedPercentProblem(english, text);
  return [...visitorTextProblems(text, { selling }), ...(percent === null ? [] : [percent])];
}
