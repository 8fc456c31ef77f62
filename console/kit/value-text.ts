import { sectionName } from './content-text';
import { words } from './copy-key-text';

/**
 * A value of the config document in a line of the review or History (docs/marketers.md): texts
 * quoted and shortened, sections by their names, a long list or object cut short.
 */

/** A text in a sentence: quoted, and shortened past this many characters. */
const TEXT_MAX = 60;

/** A summary of a list or an object stops past this many characters. */
const SUMMARY_MAX = 140;

/** A text quoted, its spaces folded and shortened: `'Find any phone'`. */
export function quoted(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  return `'${folded.length > TEXT_MAX ? `${folded.slice(0, TEXT_MAX - 1)}…` : folded}'`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPlacedSection = (value: unknown): value is { id: string; visible?: boolean } =>
  isRecord(value) && typeof value.id === 'string' && Object.keys(value).length <= 2;

const cut = (text: string) =>
  text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;

/** A list in a line: sections by their names, anything else item by item. */
function listText(items: readonly unknown[]): string {
  if (items.length === 0) return 'none';
  if (items.every(isPlacedSection)) {
    return items
      .map((item) => `${sectionName(item.id)}${item.visible === false ? ' (hidden)' : ''}`)
      .join(', ');
  }
  return items.map(innerText).join(', ');
}

/** A value inside an object or a list: a text or a number as itself, an object by its keys. */
function innerText(value: unknown): string {
  if (isRecord(value)) {
    if (typeof value.name === 'string') return quoted(value.name);
    if (typeof value.id === 'string') return value.id;
    const keys = Object.keys(value);
    return keys.length === 0 ? 'none' : keys.join(', ');
  }
  if (Array.isArray(value)) return listText(value);
  return valueText(value);
}

/**
 * A value of the document in a line of text: numbers and names bare, texts quoted and shortened,
 * sections by their names, an object by its name or its fields (the fields' own objects by their
 * keys), cut short; never a JSON blob.
 */
export function valueText(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return /^[\w./:@-]{1,40}$/.test(value) ? value : quoted(value);
  if (Array.isArray(value)) return cut(listText(value));
  if (isRecord(value)) {
    if (typeof value.name === 'string') return quoted(value.name);
    const fields = Object.entries(value).map(([key, field]) => `${words(key)} ${innerText(field)}`);
    return cut(fields.length === 0 ? 'nothing' : fields.join(', '));
  }
  return String(value);
}
