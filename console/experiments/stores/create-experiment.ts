import type { VariantChange } from '../../../shared/config/experiments';
import type { ConfigDocument } from '../../../shared/console-api/config';
import type { Layer } from '../../../shared/experiments';
import { freeId, freshSeed, idOfName } from '../../kit/experiment-edits';
import { type Atom, atom } from '../../kit/stores/atom';
import { addExperiment } from '../../kit/stores/draft';
import {
  audienceOfForm,
  changesNothing,
  DEFAULT_PLANNED_PER_ARM,
  type ExperimentForm,
  experimentOfForm,
  PRESET_DEFINITIONS,
  type Preset,
  VARIANT_KEYS,
} from '../experiment-presets';
import { fitsFree, rangeClash, type TakenRange, takenRanges, widestFree } from '../layer-space';
import { rampedProblems, rampFormOf, rampProblems } from '../ramp-form';
import { $experimentsStatus } from './experiments';

/** A share of a layer (0–1) in percent, to one decimal. */
export const layerPercent = (share: number) => `${Math.round(share * 1000) / 10}`;

/** What of `layer` the form's audience would find taken: only what its visitors can meet. */
export function takenForForm(
  document: ConfigDocument,
  form: Pick<ExperimentForm, 'layer' | 'routes' | 'audience'>,
): TakenRange[] {
  return takenRanges(document, form.layer, new Date(), { audience: audienceOfForm(form) });
}

/** The widest free stretch of a layer for the form's audience, in percent; [0, 0] when full. */
function freePercent(
  document: ConfigDocument,
  form: Pick<ExperimentForm, 'layer' | 'routes' | 'audience'>,
): [number, number] {
  const free = widestFree(takenForForm(document, form));
  return free ? [Number(layerPercent(free[0])), Number(layerPercent(free[1]))] : [0, 0];
}

/**
 * What starting the new draft would meet in its stretch of the layer: an experiment holding
 * visitors its audience can meet (layer-space.ts rangeClash), or null.
 */
export function rangeWarningOf(
  form: Pick<ExperimentForm, 'layer' | 'routes' | 'audience' | 'range'>,
  document: ConfigDocument,
  now = new Date(),
): string | null {
  const [from, to] = form.range;
  if (!(from >= 0 && to <= 100 && from < to)) return null;
  const found = rangeClash(
    document,
    { layer: form.layer, audience: audienceOfForm(form), status: 'draft' },
    [from / 100, to / 100],
    now,
  );
  return found === null
    ? null
    : `That stretch overlaps ${found.clash.name} in layer ${form.layer}: the draft saves, but it cannot start while ${found.clash.name} holds it.`;
}

/** A fresh form for `preset`: its layer, metric and sample, in the widest free stretch. */
export function formOf(preset: Preset, document: ConfigDocument): ExperimentForm {
  const definition = PRESET_DEFINITIONS[preset];
  return {
    preset,
    name: '',
    hypothesis: '',
    layer: definition.layer,
    routes: [],
    audience: '',
    coverage: 100,
    range: freePercent(document, { layer: definition.layer, routes: [], audience: '' }),
    changes: [{}],
    primary: definition.primary,
    plannedPerArm: DEFAULT_PLANNED_PER_ARM,
    ramp: rampFormOf(undefined),
  };
}

/**
 * What is wrong with the form, by field key (`name`, `change-0`, `coverage`, `range`, `planned`,
 * and the ramp's, ramp-form.ts).
 */
export type Problems = Partial<Record<string, string>>;

/** The save offer variants `document`'s content defines (a save offer test's arms show one). */
export const saveOffersOf = (document: ConfigDocument) =>
  Object.keys(document.content.saveOffer?.variants ?? {});

/**
 * What the worker's check refuses of a save offer test (worker/experiments/config/
 * save-offer-tests.ts, docs/experiments.md "Testing the save offer"), said beside the fields:
 * the save offer belongs to layer subscriber, that layer to the save offer alone, and a variant
 * may show only an offer variant the draft's content defines (`saveOffers`).
 */
function saveOfferProblems(form: ExperimentForm, saveOffers: readonly string[]): Problems {
  const problems: Problems = {};
  const testsOffer = PRESET_DEFINITIONS[form.preset].change.kind === 'saveOffer';
  if (testsOffer && form.layer !== 'subscriber') {
    problems.layer =
      "A save offer test changes the save offer, which the subscriber's page shows: put it in layer subscriber.";
  } else if (!testsOffer && form.layer === 'subscriber') {
    problems.layer =
      'A test in layer subscriber changes the save offer only: choose a funnel layer, or test the save offer.';
  }
  form.changes.forEach(({ saveOffer }, index) => {
    if (saveOffer === undefined || saveOffers.includes(saveOffer)) return;
    problems[`change-${index}`] =
      `Save offer "${saveOffer}" is not defined: ${saveOffers.length > 0 ? `choose one of ${saveOffers.join(', ')}` : 'add it to the save offer’s variants in Content'}.`;
  });
  return problems;
}

/** What is wrong with the form; `saveOffers` are the save offer variants the draft defines. */
export function problemsOf(form: ExperimentForm, saveOffers: readonly string[] = []): Problems {
  const problems: Problems = {};
  if (form.name.trim() === '') problems.name = 'Give the experiment a name.';
  Object.assign(problems, saveOfferProblems(form, saveOffers));
  form.changes.forEach((change, index) => {
    if (changesNothing(change))
      problems[`change-${index}`] = `Choose what variant ${VARIANT_KEYS[index + 1]} changes.`;
  });
  if (!(form.coverage > 0 && form.coverage <= 100))
    problems.coverage = 'Enter a share above 0%, at most 100%.';
  const [from, to] = form.range;
  // A stretch another experiment holds is said (rangeWarningOf), not refused: the validator
  // refuses it only when the draft starts, and the console refuses nothing it accepts.
  if (!(from >= 0 && to <= 100 && from < to))
    problems.range = 'Enter a stretch from 0 to 100%, its start below its end.';
  if (
    !(
      Number.isInteger(form.plannedPerArm) &&
      form.plannedPerArm >= 100 &&
      form.plannedPerArm <= 100_000_000
    )
  )
    problems.planned = 'Enter a whole number from 100 to 100,000,000.';
  // A ramp's own fields, and what it asks of the experiment: the create form gives every variant
  // the same weight, so only the number of variants and the coverage can be refused.
  Object.assign(
    problems,
    rampedProblems(form.ramp, {
      coveragePercent: form.coverage,
      weights: [1, ...form.changes.map(() => 1)],
    }),
    rampProblems(form.ramp),
  );
  return problems;
}

/** What a submit did: the first field with a problem, or the id of the experiment created. */
export type CreateOutcome = { kind: 'problem'; field: string } | { kind: 'created'; id: string };

/** One create form's state and what a marketer can do with it. */
export interface CreateExperimentForm {
  $form: Atom<ExperimentForm>;
  $problems: Atom<Problems>;
  update(fields: Partial<ExperimentForm>): void;
  /** A fresh form for another preset; its problems go. */
  choosePreset(preset: Preset, document: ConfigDocument): void;
  /** Another layer, with the range moved to its widest free stretch. */
  chooseLayer(layer: Layer, document: ConfigDocument): void;
  /**
   * Another route or saved audience: what is free changes with who enters (an experiment on
   * other routes takes nothing of theirs), so a range that no longer fits moves to the widest
   * free stretch; one that fits stays as the marketer set it.
   */
  toggleRoute(route: string, on: boolean, document: ConfigDocument): void;
  chooseAudience(audience: string, document: ConfigDocument): void;
  setChange(index: number, change: VariantChange): void;
  removeChange(index: number): void;
  addChange(): void;
  /**
   * Checks the form; when nothing is wrong, adds the experiment to the draft as a draft, says so
   * in the experiments' status line and starts a fresh form of the same preset.
   */
  submit(document: ConfigDocument): CreateOutcome;
}

/**
 * The create form's store, one per form: the preset fills the layer, the kind of change, the
 * metric and a sample; the marketer names it, says who enters, and picks what each variant
 * changes. It goes into the draft with equal weights and a fresh seed.
 */
export function createExperimentForm(document: ConfigDocument): CreateExperimentForm {
  const $form = atom(formOf('price', document));
  const $problems = atom<Problems>({});
  const update = (fields: Partial<ExperimentForm>) => $form.set({ ...$form.get(), ...fields });
  const changes = () => $form.get().changes;
  const whoEnters = (
    fields: Pick<Partial<ExperimentForm>, 'routes' | 'audience'>,
    document: ConfigDocument,
  ) => {
    const form = { ...$form.get(), ...fields };
    const [from, to] = form.range;
    const fits = from < to && fitsFree(takenForForm(document, form), from / 100, to / 100);
    update(fits ? fields : { ...fields, range: freePercent(document, form) });
  };
  return {
    $form,
    $problems,
    update,
    choosePreset(preset, document) {
      $form.set(formOf(preset, document));
      $problems.set({});
    },
    chooseLayer(layer, document) {
      // Layer subscriber takes every subscriber: the routes and audience it cannot use go, and
      // a ramp, which draws visitors of the funnel.
      const ramp = { ...$form.get().ramp, on: false };
      const who = layer === 'subscriber' ? { routes: [], audience: '', ramp } : {};
      update({ layer, ...who, range: freePercent(document, { ...$form.get(), ...who, layer }) });
    },
    toggleRoute(route, on, document) {
      const routes = $form.get().routes;
      whoEnters(
        { routes: on ? [...routes, route] : routes.filter((each) => each !== route) },
        document,
      );
    },
    chooseAudience: (audience, document) => whoEnters({ audience }, document),
    setChange: (index, change) =>
      update({ changes: changes().map((each, at) => (at === index ? change : each)) }),
    removeChange: (index) => update({ changes: changes().filter((_, at) => at !== index) }),
    addChange: () => update({ changes: [...changes(), {}] }),
    submit(document) {
      const form = $form.get();
      const found = problemsOf(form, saveOffersOf(document));
      $problems.set(found);
      const first = Object.keys(found)[0];
      if (first) return { kind: 'problem', field: first };
      const id = freeId(idOfName(form.name) || form.preset, document.experiments.experiments);
      addExperiment(id, experimentOfForm(form, freshSeed()));
      $experimentsStatus.set(
        `Created the draft experiment ${id}. Start it from the list, or review and publish it as a draft.`,
      );
      $form.set(formOf(form.preset, document));
      return { kind: 'created', id };
    },
  };
}
