import { describe, expect, it } from 'vitest';
import { flowNameProblem, variantKeyProblem } from '../../../console/kit/config-names';
import {
  flowWalkers,
  screensWalked,
  variantsWalking,
  withExperiment,
  withFlow,
  withScreenAdded,
  withScreenMoved,
  withScreenRemoved,
  withVariant,
  withVariantFlow,
  withWeight,
} from '../../../console/kit/document-edits';
import { liveDocument } from './fixtures';

describe('editing the config document', () => {
  it('changes a weight and leaves the document it was given alone', () => {
    const live = liveDocument();
    const edited = withWeight(live, 'lp17', 0);
    expect(edited.split.variants.lp17).toEqual({ weight: 0, flow: 'lp17ch17pr5' });
    expect(live).toEqual(liveDocument());
    expect(withWeight(live, 'nobody', 5)).toBe(live);
  });

  it('sets the primary metric and planned sample, and takes out what is unset', () => {
    const live = liveDocument();
    const chosen = withExperiment(live, { primaryMetric: 'signup' });
    expect(chosen.split.experiment).toEqual({ primaryMetric: 'signup' });
    const planned = withExperiment(chosen, { plannedPerArm: 5000 });
    expect(planned.split.experiment).toEqual({ primaryMetric: 'signup', plannedPerArm: 5000 });
    expect(withExperiment(planned, { plannedPerArm: undefined }).split.experiment).toEqual({
      primaryMetric: 'signup',
    });
    // Nothing left: no `experiment` at all, so the document is the live one again.
    const undone = withExperiment(chosen, { primaryMetric: undefined });
    expect(undone).toEqual(live);
    expect('experiment' in undone.split).toBe(false);
    expect(live).toEqual(liveDocument());
  });

  it('keeps the order of the split’s keys, so an undone edit is no edit', () => {
    const live = liveDocument();
    const { variants, ...rest } = live.split;
    const withSettings = {
      ...live,
      split: { ...rest, experiment: { primaryMetric: 'purchase' as const }, variants },
    };
    const undone = withExperiment(withExperiment(withSettings, { primaryMetric: 'lookup' }), {
      primaryMetric: 'purchase',
    });
    expect(JSON.stringify(undone)).toBe(JSON.stringify(withSettings));
  });

  it('moves a screen up or down, and nothing past either end', () => {
    const live = liveDocument();
    const down = withScreenMoved(live, 'lp17ch17pr5', 0, 1);
    expect(down.flows.flows.lp17ch17pr5).toEqual([
      'searching_2',
      'one_pager_all',
      'signup_testim',
      'success',
    ]);
    const up = withScreenMoved(down, 'lp17ch17pr5', 1, -1);
    expect(up.flows.flows.lp17ch17pr5).toEqual(live.flows.flows.lp17ch17pr5);
    expect(withScreenMoved(live, 'lp17ch17pr5', 0, -1).flows.flows).toEqual(live.flows.flows);
    expect(withScreenMoved(live, 'lp17ch17pr5', 3, 1).flows.flows).toEqual(live.flows.flows);
    expect(live).toEqual(liveDocument());
  });

  it('adds a screen at the end once, and removes one by its place', () => {
    const live = liveDocument();
    const added = withScreenAdded(live, 'default', 'upsell_an_private');
    expect(added.flows.flows.default?.at(-1)).toBe('upsell_an_private');
    expect(withScreenAdded(added, 'default', 'upsell_an_private')).toEqual(added);
    const removed = withScreenRemoved(added, 'default', 1);
    expect(removed.flows.flows.default).toEqual([
      'one_pager',
      'signup',
      'checkout_v3_tr',
      'success',
      'upsell_an_private',
    ]);
    expect(withScreenAdded(live, 'no_such_flow', 'signup')).toBe(live);
  });

  it('adds a variant on an existing flow, or on a new one copied from default', () => {
    const live = liveDocument();
    const onExisting = withVariant(live, 'lp18', { weight: 10, flow: 'lp17ch17pr5' });
    expect(onExisting.split.variants.lp18).toEqual({ weight: 10, flow: 'lp17ch17pr5' });
    expect(onExisting.flows).toEqual(live.flows);

    const onNew = withVariant(live, 'lp18/b', { weight: 5, flow: 'lp18_b' });
    expect(onNew.split.variants['lp18/b']).toEqual({ weight: 5, flow: 'lp18_b' });
    expect(onNew.flows.flows.lp18_b).toEqual(live.flows.flows.default);
    expect(Object.keys(onNew.split.variants).at(-1)).toBe('lp18/b');
  });

  it('points a variant at another flow, and adds flows', () => {
    const live = liveDocument();
    expect(withVariantFlow(live, 'default', 'lp17ch17pr5').split.variants.default).toEqual({
      weight: 50,
      flow: 'lp17ch17pr5',
    });
    const withNew = withFlow(live, 'short', ['one_pager', 'success']);
    expect(withNew.flows.flows.short).toEqual(['one_pager', 'success']);
  });

  it('knows which variants walk a flow, and the screens a variant walks', () => {
    const live = liveDocument();
    expect(variantsWalking(live, 'default')).toEqual(['default', 'old']);
    expect(variantsWalking(live, 'lp11ch8_vc')).toEqual(['lp11ch8/vc']);
  });

  it('names everything that walks a flow: variants, routes and experiments', () => {
    const live = liveDocument();
    live.routing.routes.unshift({ id: 'tt-dach', flow: 'lp17ch17pr5' });
    live.experiments.experiments['flow-test'] = {
      ...live.experiments.experiments['landing-all']!,
      layer: 'flow',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { flow: 'lp17ch17pr5' } },
      },
    };
    expect(flowWalkers(live, 'lp17ch17pr5')).toEqual([
      'variant lp17',
      'route tt-dach',
      'experiment flow-test',
    ]);
    expect(flowWalkers(live, 'default')).toEqual([
      'variant default',
      'variant old',
      'route default',
    ]);
    // An archived experiment walks nothing any more.
    live.experiments.experiments['flow-test']!.status = 'archived';
    live.split.variants.lp17!.flow = 'default';
    expect(flowWalkers(live, 'lp17ch17pr5')).toEqual(['route tt-dach']);
    expect(screensWalked(live, 'lp11ch8/vc')).toEqual({
      flow: 'lp11ch8_vc',
      screens: live.flows.flows.lp11ch8_vc,
      missing: false,
    });
    const withoutItsFlow = withVariantFlow(live, 'lp17', 'gone');
    expect(screensWalked(withoutItsFlow, 'lp17')).toEqual({
      flow: 'gone',
      screens: live.flows.flows.default,
      missing: true,
    });
  });
});

describe('names typed for a new variant or flow', () => {
  const { split, flows } = liveDocument();

  it('takes "type" and "type/subtype" keys not in use yet', () => {
    expect(variantKeyProblem('lp18', split)).toBeNull();
    expect(variantKeyProblem('lp18/b-2_x', split)).toBeNull();
    expect(variantKeyProblem('lp17', split)).toBe('lp17 is a variant already.');
    expect(variantKeyProblem('', split)).toBe('Enter a key for the variant.');
    for (const bad of ['LP18', 'lp18/', '/lp18', 'lp/18/b', '-lp', 'lp 18', 'lp18.b']) {
      expect(variantKeyProblem(bad, split)).toMatch(/^Use lower-case letters/);
    }
  });

  it('takes flow names without a slash, not in use yet', () => {
    expect(flowNameProblem('lp18_b', flows.flows)).toBeNull();
    expect(flowNameProblem('lp18/b', flows.flows)).toMatch(/^Use lower-case letters/);
    expect(flowNameProblem('default', flows.flows)).toBe('A flow named default exists already.');
    expect(flowNameProblem('', flows.flows)).toBe('Enter a name for the flow.');
  });
});
