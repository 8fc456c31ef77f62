import type { Change } from '../../shared/console-api/versions';

/** A value of the document in a line of text: numbers and names bare, lists and objects short. */
export function valueText(value: unknown): string {
  if (value === undefined) return '(none)';
  if (Array.isArray(value)) return `[${value.map(valueText).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).map(([key, field]) => `${key}: ${valueText(field)}`);
    return `{${fields.join(', ')}}`;
  }
  return String(value);
}

/** One difference as a line: `split.variants.lp1.weight: 50 → 30`. */
export function changeText(change: Change): string {
  switch (change.kind) {
    case 'added':
      return `${change.path}: added ${valueText(change.after)}`;
    case 'removed':
      return `${change.path}: removed (was ${valueText(change.before)})`;
    case 'changed':
      return `${change.path}: ${valueText(change.before)} → ${valueText(change.after)}`;
  }
}
