import { beforeEach, describe, expect, it } from 'vitest';
import {
  createExperimentForm,
  formOf,
  problemsOf,
  rangeWarningOf,
} from '../../../console/experiments/stores/create-experiment';
import { $experimentsStatus } from '../../../console/experiments/stores/experiments';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import { consoleState, liveDocument } from './fixtures';

const plans = { plans: ['monthly'] };

describe('the create form’s store', () => {
  beforeEach(() => {
    startDraft(consoleState());
    $experimentsStatus.set('');
  });

  it('starts as a price test in the paywall layer, the whole of its free space', () => {
    const form = createExperimentForm(liveDocument()).$form.get();
    expect(form).toMatchObject({
      preset: 'price',
      layer: 'paywall',
      range: [0, 100],
      changes: [{}],
      primary: 'mature_revenue',
      plannedPerArm: 10_000,
    });
  });

  it('names the first problem and creates nothing while the form has problems', () => {
    const form = createExperimentForm(liveDocument());
    expect(form.submit(liveDocument())).toEqual({ kind: 'problem', field: 'name' });
    expect(form.$problems.get()).toEqual({
      name: 'Give the experiment a name.',
      'change-0': 'Choose what variant b changes.',
    });
    expect(Object.keys($draft.get()?.document.experiments.experiments ?? {})).toEqual([
      'landing-all',
    ]);
  });

  it('warns of a stretch another experiment takes, and refuses a share or sample out of bounds', () => {
    const document = liveDocument();
    const form = { ...formOf('landing', document), name: 'x', changes: [plans] };
    expect(form.range).toEqual([0, 0]);
    // Taken by a running test: said, not refused, as the validator takes a draft anywhere.
    expect(problemsOf({ ...form, range: [0, 50] })).toEqual({});
    expect(rangeWarningOf({ ...form, range: [0, 50] }, document)).toBe(
      'That stretch overlaps All-in-one landing in layer landing: the draft saves, but it cannot start while All-in-one landing holds it.',
    );
    expect(problemsOf({ ...form, range: [50, 50], coverage: 0, plannedPerArm: 99.5 })).toEqual({
      range: 'Enter a stretch from 0 to 100%, its start below its end.',
      coverage: 'Enter a share above 0%, at most 100%.',
      planned: 'Enter a whole number from 100 to 100,000,000.',
    });
  });

  it('adds, changes and removes variants and routes', () => {
    const form = createExperimentForm(liveDocument());
    form.addChange();
    form.setChange(1, plans);
    form.toggleRoute('default', true, liveDocument());
    expect(form.$form.get()).toMatchObject({ changes: [{}, plans], routes: ['default'] });
    form.removeChange(0);
    form.toggleRoute('default', false, liveDocument());
    expect(form.$form.get()).toMatchObject({ changes: [plans], routes: [] });
  });

  it('offers the free space of the routes ticked: a layer full on default is free on spring', () => {
    const document = liveDocument();
    document.routing.routes.push({ id: 'spring', flow: 'default' });
    const form = createExperimentForm(document);
    form.chooseLayer('landing', document);
    // `landing-all` takes the whole landing layer on route default, so on every route: none free.
    expect(form.$form.get().range).toEqual([0, 0]);
    form.toggleRoute('spring', true, document);
    expect(form.$form.get().range).toEqual([0, 100]);
    // A range that still fits stays as the marketer set it.
    form.update({ range: [20, 60] });
    form.chooseAudience('', document);
    expect(form.$form.get().range).toEqual([20, 60]);
    // Adding default, whose space is taken, moves it back to what is free for both: nothing.
    form.toggleRoute('default', true, document);
    expect(form.$form.get().range).toEqual([0, 0]);
  });

  it('starts afresh on another preset, its problems gone, and moves the range with the layer', () => {
    const form = createExperimentForm(liveDocument());
    form.update({ name: 'Cheaper intro' });
    form.submit(liveDocument());
    form.choosePreset('upsell', liveDocument());
    expect(form.$form.get()).toMatchObject({ preset: 'upsell', name: '', layer: 'upsell' });
    expect(form.$problems.get()).toEqual({});
    form.chooseLayer('landing', liveDocument());
    expect(form.$form.get()).toMatchObject({ layer: 'landing', range: [0, 0] });
  });

  it('adds a draft experiment, says so and starts a fresh form of the same preset', () => {
    const form = createExperimentForm(liveDocument());
    form.update({ name: 'Cheaper intro', coverage: 50 });
    form.setChange(0, plans);
    expect(form.submit(liveDocument())).toEqual({ kind: 'created', id: 'cheaper-intro' });
    expect($draft.get()?.document.experiments.experiments['cheaper-intro']).toMatchObject({
      name: 'Cheaper intro',
      status: 'draft',
      layer: 'paywall',
      coverage: 0.5,
      variants: { a: { weight: 1, change: {} }, b: { weight: 1, change: plans } },
    });
    expect($experimentsStatus.get()).toBe(
      'Created the draft experiment cheaper-intro. Start it from the list, or review and publish it as a draft.',
    );
    expect(form.$form.get()).toMatchObject({ preset: 'price', name: '', changes: [{}] });
  });

  it('refuses what the worker refuses of a save offer test, and clears routes in layer subscriber', () => {
    const document = liveDocument();
    const form = createExperimentForm(document);
    form.toggleRoute('default', true, document);
    form.chooseLayer('subscriber', document);
    // A funnel preset in layer subscriber: that layer takes the save offer only.
    expect(form.$form.get()).toMatchObject({ layer: 'subscriber', routes: [], audience: '' });
    expect(problemsOf({ ...form.$form.get(), name: 'x', changes: [plans] })).toEqual({
      layer:
        'A test in layer subscriber changes the save offer only: choose a funnel layer, or test the save offer.',
    });
    const offer = { ...formOf('save_offer', document), name: 'x' };
    expect(offer).toMatchObject({ layer: 'subscriber', primary: 'net_revenue' });
    expect(
      problemsOf({ ...offer, changes: [{ saveOffer: 'half_price' }] }, ['half_price']),
    ).toEqual({});
    // A variant the content no longer defines (removed in Content since it was picked).
    expect(problemsOf({ ...offer, changes: [{ saveOffer: 'third_off' }] }, ['half_price'])).toEqual(
      {
        'change-0': 'Save offer "third_off" is not defined: choose one of half_price.',
      },
    );
    expect(problemsOf({ ...offer, changes: [{ saveOffer: 'third_off' }] })).toEqual({
      'change-0':
        'Save offer "third_off" is not defined: add it to the save offer’s variants in Content.',
    });
  });
});
