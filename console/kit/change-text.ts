import type { Change } from '../../shared/console-api/versions';
import { type ChangeItem, contentChangeItem } from './content-change-text';
import { fieldLabel } from './field-errors';
import { routingChangeLines } from './routing-change-text';
import { quoted, valueText } from './value-text';

/**
 * The review's and History's change list in a marketer's words (docs/marketers.md "Versions and
 * rollback"): one sentence per change, a long value summarised, the path kept as small detail;
 * where copy changed, one item per text with each language that changed side by side.
 */

/** The document's sections, as a change of one whole is named. */
const SECTION_NAMES: Record<string, string> = {
  split: 'Split',
  flows: 'Flows',
  routing: 'Routing',
  experiments: 'Experiments',
};

/** What the config calls the field at `path`, with what the short label leaves out. */
function configLabel(path: string): string {
  const label = fieldLabel(path);
  const [section = '', group, name, ...rest] = path.split('.');
  if (group === undefined && Object.hasOwn(SECTION_NAMES, section)) return SECTION_NAMES[section]!;
  if (section === 'experiments' && group === 'experiments' && name !== undefined) {
    return rest.length > 0 ? `Experiment ${name}, ${rest.join(' ')}` : `Experiment ${name}`;
  }
  if (label.startsWith('The ')) {
    const words = path.split('.').slice(1).join(' ');
    const area = label.replace(/^The /, '').replace(/^./, (c) => c.toUpperCase());
    return words === '' ? area : `${area}: ${words}`;
  }
  return label;
}

/** A change of the split, the flows, the routing or the experiments as a sentence. */
function configSentence(change: Change): string {
  const label = configLabel(change.path);
  switch (change.kind) {
    case 'added':
      return `${label} added: ${valueText(change.after)}`;
    case 'removed':
      return `${label} removed (was ${valueText(change.before)})`;
    case 'changed':
      return `${label}: ${valueText(change.before)} → ${valueText(change.after)}`;
  }
}

/**
 * A change of the config in sentences: the routes, audiences, an experiment's audience and
 * decision as routing-change-text.ts words them, any other field as its label with before → after.
 */
function configLines(change: Change): string[] {
  return routingChangeLines(change) ?? [configSentence(change)];
}

/** One difference as a sentence: "Weight of lp1: 50 → 30". */
export function changeText(change: Change): string {
  const item = contentChangeItem(change);
  if (item === null) return configLines(change).join('; ');
  if (item.kind === 'line') return item.text;
  const row = item.rows[0];
  const language = row ? ` (${row.language})` : '';
  return `${item.title}${language}: ${row?.before === undefined ? 'the text in code' : quoted(row.before)} → ${row?.after === undefined ? 'the text in code' : quoted(row.after)}`;
}

/**
 * The items of a change list, in the order of the changes: a text's languages gathered into one
 * item, side by side, each other change a sentence.
 */
export function changeItems(changes: readonly Change[]): ChangeItem[] {
  const items: ChangeItem[] = [];
  const texts = new Map<string, Extract<ChangeItem, { kind: 'copy' }>>();
  for (const change of changes) {
    const item = contentChangeItem(change);
    if (item === null) {
      for (const text of configLines(change))
        items.push({ kind: 'line', text, paths: [change.path] });
      continue;
    }
    if (item.kind === 'line') {
      items.push(item);
      continue;
    }
    const text = `${item.title}\n${item.key}`;
    const same = texts.get(text);
    if (same) {
      same.rows.push(...item.rows);
      same.paths.push(...item.paths);
    } else {
      texts.set(text, item);
      items.push(item);
    }
  }
  return items;
}

/** "3 changes": the items a change list shows (a text's languages are one), not raw paths. */
export function changesText(changes: readonly Change[]): string {
  const count = changeItems(changes).length;
  return `${count} ${count === 1 ? 'change' : 'changes'}`;
}
