import type { ConfigDocument } from '../../shared/console-api/config';
import type { FieldError } from '../../shared/console-api/errors';

/**
 * Where the worker's refusals are shown. A FieldError names a path of the document
 * (`split.variants.lp1.weight`, `flows.flows.x.2`); the form shows it beside the control or group
 * that edits that path, or, for a path no control edits (a check on the whole list of a flow, a
 * section over the size cap), beside the nearest enclosing one. Every error is also listed in the
 * form's summary.
 */

/** The paths the form has a place for, given the document it shows. */
export function errorAnchors(document: ConfigDocument): Set<string> {
  const anchors = new Set([
    'split.variants',
    'flows.flows',
    'split.experiment.primaryMetric',
    'split.experiment.plannedPerArm',
  ]);
  for (const key of Object.keys(document.split.variants)) {
    const variant = `split.variants.${key}`;
    anchors.add(variant).add(`${variant}.weight`).add(`${variant}.flow`);
  }
  for (const [name, screens] of Object.entries(document.flows.flows)) {
    anchors.add(`flows.flows.${name}`);
    for (const index of screens.keys()) anchors.add(`flows.flows.${name}.${index}`);
  }
  for (const [name, questions] of Object.entries(document.flows.branches ?? {})) {
    for (const id of Object.keys(questions)) anchors.add(`flows.branches.${name}.${id}`);
  }
  for (const path of questionFields(document)) anchors.add(path);
  return anchors;
}

/**
 * The fields of the quiz's questions (console/quiz/QuestionEditor.tsx), in every language a
 * text may be written in: a refusal in a language not shown goes to the question as a whole.
 */
function questionFields(document: ConfigDocument): string[] {
  const fields: string[] = [];
  for (const [id, asked] of Object.entries(document.content.questions ?? {})) {
    const at = `content.questions.${id}`;
    const texts = (field: string, own: Readonly<Record<string, string>> | undefined) =>
      Object.keys(own ?? { en: '' }).map((language) => `${at}.${field}.${language}`);
    fields.push(
      at,
      `${at}.choices`,
      ...texts('title', asked.title),
      ...texts('subtitle', asked.subtitle),
    );
    for (const field of [
      'key',
      'min',
      'max',
      'most',
      'maxLength',
      'seconds',
      'earliest',
      'latest',
    ]) {
      fields.push(`${at}.${field}`);
    }
    if (asked.kind === 'number') fields.push(...texts('unit', asked.unit));
    if (asked.kind === 'info' && asked.picture) {
      fields.push(`${at}.picture`, ...texts('picture.alt', { en: '', ...asked.picture.alt }));
    }
    if ('choices' in asked) {
      for (const [index, choice] of asked.choices.entries()) {
        const one = `choices.${index}`;
        fields.push(
          ...texts(`${one}.label`, choice.label),
          `${at}.${one}.value`,
          `${at}.${one}.picture`,
        );
      }
    }
  }
  return fields;
}

/** The place for an error at `path`: the path itself, else its nearest enclosing place; else null. */
export function anchorOf(path: string, anchors: ReadonlySet<string>): string | null {
  const segments = path.split('.');
  for (let length = segments.length; length > 0; length -= 1) {
    const candidate = segments.slice(0, length).join('.');
    if (anchors.has(candidate)) return candidate;
  }
  return null;
}

/** The errors by the place they are shown at; those with no place are in the summary only. */
export function placeErrors(
  errors: readonly FieldError[],
  anchors: ReadonlySet<string>,
): Map<string, FieldError[]> {
  const placed = new Map<string, FieldError[]>();
  for (const error of errors) {
    const anchor = anchorOf(error.path, anchors);
    if (anchor === null) continue;
    placed.set(anchor, [...(placed.get(anchor) ?? []), error]);
  }
  return placed;
}

/** What a marketer calls the field at `path`, for the summary: "Weight of lp1", "Flow x, screen 3". */
export function fieldLabel(path: string): string {
  const [section, group, name, rest, ...more] = path.split('.');
  if (section === 'split' && group === 'variants') {
    if (name === undefined) return 'Weights';
    if (rest === 'weight' && more.length === 0) return `Weight of ${name}`;
    if (rest === 'flow' && more.length === 0) return `Flow of ${name}`;
    return `Variant ${name}`;
  }
  if (section === 'split' && group === 'defaultVariant') return 'Default variant';
  if (section === 'split' && group === 'experiment') {
    if (name === 'primaryMetric') return 'Primary metric';
    if (name === 'plannedPerArm') return 'Planned visitors per variant';
    return 'The experiment settings';
  }
  if (section === 'flows' && group === 'flows') {
    if (name === undefined) return 'Flows';
    const index = Number(rest);
    if (rest !== undefined && Number.isInteger(index)) return `Flow ${name}, screen ${index + 1}`;
    return `Flow ${name}`;
  }
  if (section === 'routing' && group === 'routes') {
    const index = Number(name);
    return Number.isInteger(index) && name !== undefined
      ? `Route ${index + 1}${rest ? `, ${rest}` : ''}`
      : 'Routes';
  }
  if (section === 'routing' && group === 'audiences') {
    return name === undefined ? 'Audiences' : `Audience ${name}`;
  }
  if (section === 'experiments' && group === 'experiments' && name !== undefined)
    return rest === 'decision' ? `Decision on experiment ${name}` : `Experiment ${name}`;
  if (section === 'routing') return 'The routing';
  if (section === 'split') return 'The split';
  if (section === 'flows') return 'The flows';
  return 'The config';
}

/** The id of the message element beside the place for `path`, for aria-describedby and links. */
export function errorId(anchor: string): string {
  return `error:${anchor}`;
}
