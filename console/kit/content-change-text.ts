import type { Change, PlacedSection } from '../../shared/console-api/versions';
import { languageName, sectionName, slotName, themeName } from './content-text';
import { copyKeyLabel, words } from './copy-key-text';
import { valueText } from './value-text';

/**
 * The content's changes in the review and History in a marketer's words (docs/marketers.md
 * "The content editor"): a composed screen, a content variant, a screen's sections, its
 * picture and rating, a brand, each as a sentence ("spring_landing: new variant reviews_first:
 * Reviews moved above Heading"); a text as an item with its languages side by side.
 */

/** A text of one language in a copy change: what it said and what it says (absent: the code's). */
export interface CopyRow {
  language: string;
  before?: string;
  after?: string;
}

/** One item of the change list: a sentence, or a text with its languages side by side. */
export type ChangeItem =
  | { kind: 'line'; text: string; paths: string[] }
  | { kind: 'copy'; title: string; key: string; rows: CopyRow[]; paths: string[] };

/** Where on a screen a content change is: the screen, the variant if any, and what is left. */
interface ContentPlace {
  screen: string;
  composed: boolean;
  variant: string | null;
  rest: string[];
}

const SCREEN_PATH = /^content\.(screens|composed)\.([^.]+)(?:\.variants\.([^.]+))?(?:\.(.*))?$/;

function placeOf(path: string): ContentPlace | null {
  const match = SCREEN_PATH.exec(path);
  if (!match) return null;
  const [, record, screen = '', variant, rest] = match;
  return {
    screen,
    composed: record === 'composed',
    variant: variant ?? null,
    rest: rest === undefined ? [] : rest.split('.'),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const sectionsOf = (value: unknown): PlacedSection[] | null =>
  Array.isArray(value) ? (value as PlacedSection[]) : null;

const names = (sections: readonly PlacedSection[]) =>
  sections.map((section) => sectionName(section.id)).join(', ');

/** The ids both lists keep in the same order, preferring to keep what came first before. */
function keptInOrder(before: readonly string[], after: readonly string[]): Set<string> {
  const rows = before.length + 1;
  const columns = after.length + 1;
  const longest = Array.from({ length: rows }, () => new Array<number>(columns).fill(0));
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      longest[i]![j] =
        before[i] === after[j]
          ? longest[i + 1]![j + 1]! + 1
          : Math.max(longest[i + 1]![j]!, longest[i]![j + 1]!);
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    if (before[i] === after[j]) {
      kept.add(before[i]!);
      i += 1;
      j += 1;
    } else if (longest[i]![j + 1]! >= longest[i + 1]![j]!) j += 1;
    else i += 1;
  }
  return kept;
}

/**
 * What a new section list does to the one before, in words: "Reviews moved above Phone form;
 * Questions hidden; Picture added". Empty when the lists are the same.
 */
export function sectionMoves(
  before: readonly PlacedSection[],
  after: readonly PlacedSection[],
): string {
  const was = new Map(before.map((section) => [section.id, section]));
  const is = new Map(after.map((section) => [section.id, section]));
  const stayed = after.map((section) => section.id).filter((id) => was.has(id));
  const kept = keptInOrder(
    before.map((section) => section.id).filter((id) => is.has(id)),
    stayed,
  );
  const parts = stayed.flatMap((id, index) => {
    if (kept.has(id)) return [];
    const next = stayed[index + 1];
    return [`${sectionName(id)} moved ${next ? `above ${sectionName(next)}` : 'to the end'}`];
  });
  for (const section of after) {
    const old = was.get(section.id);
    if (!old) parts.push(`${sectionName(section.id)} added`);
    else if (old.visible !== false && section.visible === false)
      parts.push(`${sectionName(section.id)} hidden`);
    else if (old.visible === false && section.visible !== false)
      parts.push(`${sectionName(section.id)} shown`);
  }
  for (const section of before) {
    if (!is.has(section.id)) parts.push(`${sectionName(section.id)} removed`);
  }
  return parts.join('; ');
}

/** What a screen's body (a new variant, a new screen) shows, against the sections it is laid over. */
function bodyText(body: unknown, over: readonly PlacedSection[] | undefined): string {
  if (!isRecord(body)) return valueText(body);
  const parts: string[] = [];
  const sections = sectionsOf(body.sections);
  if (sections && over) parts.push(sectionMoves(over, sections) || 'the same sections');
  else if (sections) parts.push(names(sections));
  if (isRecord(body.copy) && Object.keys(body.copy).length > 0) {
    parts.push(`its own texts in ${Object.keys(body.copy).map(languageName).join(', ')}`);
  }
  if (isRecord(body.picture)) parts.push('its own picture');
  if (isRecord(body.variants) && Object.keys(body.variants).length > 0) {
    parts.push(`variants ${Object.keys(body.variants).join(', ')}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'the screen as it is';
}

/** A whole composed screen or variant, added or removed. */
function wholeText(change: Change, place: ContentPlace): string {
  const { screen, variant } = place;
  if (variant !== null) {
    return change.kind === 'removed'
      ? `${screen}: variant ${variant} removed`
      : `${screen}: new variant ${variant}: ${bodyText(change.after, change.sectionsOver)}`;
  }
  if (change.kind === 'removed') return `Composed screen ${screen} removed`;
  const after = isRecord(change.after) ? change.after : {};
  const kind = typeof after.slot === 'string' ? `${slotName(after.slot)}, ` : '';
  return `New composed screen ${screen} (${kind}from ${valueText(after.from)}): ${bodyText(after, undefined)}`;
}

/** A screen's or a variant's section list, set, changed or given back to the screen's. */
function sectionsText(change: Change, where: string): string {
  const before = sectionsOf(change.before);
  const after = sectionsOf(change.after);
  if (before && after) return `${where}: ${sectionMoves(before, after) || 'sections unchanged'}`;
  if (after) {
    const over = change.sectionsOver;
    const moves = over ? sectionMoves(over, after) : '';
    return `${where}: ${moves || `sections ${names(after)}`}`;
  }
  return `${where}: sections back to the screen's own`;
}

/** Any other field of a screen (its picture, its rating, a composed screen's start). */
function fieldText(change: Change, where: string, rest: readonly string[]): string {
  const [field, ...more] = rest;
  if (field === 'from' && change.kind === 'changed') {
    return `${where} now starts from ${valueText(change.after)} (was ${valueText(change.before)})`;
  }
  if (field === 'picture' && more.length === 0) {
    if (change.kind === 'removed') return `${where}: picture removed`;
    const picture = isRecord(change.after) ? change.after : {};
    const size = `${valueText(picture.width)} × ${valueText(picture.height)} px`;
    return `${where}: ${change.kind === 'added' ? 'new' : 'another'} picture (${size})`;
  }
  if (field === 'picture' && more[0] === 'id') return `${where}: picture replaced`;
  const label = [field === 'rating' ? 'reviews rating' : field, ...more].join(' ');
  if (change.kind === 'added') return `${where}: ${label} set to ${valueText(change.after)}`;
  if (change.kind === 'removed')
    return `${where}: ${label} removed (was ${valueText(change.before)})`;
  return `${where}: ${label} ${valueText(change.before)} → ${valueText(change.after)}`;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A text of a copy (`copy.<language>.<key>`) or a picture's alt text (`picture.alt.<language>`). */
function copyItem(change: Change, where: string, rest: readonly string[]): ChangeItem | null {
  const [field, language, ...key] = rest;
  const isCopy = field === 'copy' && language !== undefined && key.length > 0;
  const isAlt = field === 'picture' && language === 'alt' && key.length === 1;
  if (!isCopy && !isAlt) return null;
  const copyKey = isCopy ? key.join('.') : 'picture.alt';
  const label = isCopy ? copyKeyLabel(copyKey) : 'Picture’s alt text';
  return {
    kind: 'copy',
    title: where === '' ? label : `${label} of ${where}`,
    key: copyKey,
    rows: [
      {
        language: languageName(isCopy ? language : (key[0] ?? '')),
        before: textOf(change.before),
        after: textOf(change.after),
      },
    ],
    paths: [change.path],
  };
}

/** A brand's change: set whole, given back to the code's, or one field. */
function brandText(change: Change, theme: string, rest: readonly string[]): string {
  const brand = `Brand of ${themeName(theme)}`;
  if (rest.length === 0) {
    if (change.kind === 'removed') return `${brand}: back to the brand in code`;
    const after = isRecord(change.after) ? change.after : {};
    return `${brand} set: ${valueText(after.name)} on ${valueText(after.host)}`;
  }
  const label = rest.map(words).join(' ');
  if (rest[0] === 'favicon') return `${brand}: favicon replaced`;
  if (change.kind === 'changed') {
    return `${brand}, ${label}: ${valueText(change.before)} → ${valueText(change.after)}`;
  }
  return `${brand}, ${label}: ${change.kind === 'added' ? valueText(change.after) : 'removed'}`;
}

/** A change of the content as an item of the change list; null for any other change. */
export function contentChangeItem(change: Change): ChangeItem | null {
  const line = (text: string): ChangeItem => ({ kind: 'line', text, paths: [change.path] });
  const brand = /^content\.brands\.([^.]+)(?:\.(.*))?$/.exec(change.path);
  if (brand) return line(brandText(change, brand[1] ?? '', brand[2]?.split('.') ?? []));
  const copy = /^copy\.([^.]+)\.(.+)$/.exec(change.path);
  if (copy) return copyItem(change, '', ['copy', copy[1] ?? '', copy[2] ?? '']);
  const place = placeOf(change.path);
  if (!place) return null;
  const where = place.variant === null ? place.screen : `${place.screen}, variant ${place.variant}`;
  if (place.rest.length === 0) {
    if (place.composed || place.variant !== null) return line(wholeText(change, place));
    return line(
      `${place.screen}: ${change.kind === 'removed' ? 'back to the screen in code' : bodyText(change.after, undefined)}`,
    );
  }
  const text = copyItem(change, where, place.rest);
  if (text) return text;
  if (place.rest[0] === 'sections' && place.rest.length === 1)
    return line(sectionsText(change, where));
  return line(fieldText(change, where, place.rest));
}
