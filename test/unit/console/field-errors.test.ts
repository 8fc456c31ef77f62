import { describe, expect, it } from 'vitest';
import { anchorOf, errorAnchors, fieldLabel, placeErrors } from '../../../console/kit/field-errors';
import { liveDocument } from './fixtures';

const anchors = errorAnchors(liveDocument());

describe('where a refusal is shown in the form', () => {
  it('beside the control that edits the path it names', () => {
    expect(anchorOf('split.variants.lp17.weight', anchors)).toBe('split.variants.lp17.weight');
    expect(anchorOf('split.variants.lp11ch8/vc.flow', anchors)).toBe(
      'split.variants.lp11ch8/vc.flow',
    );
    expect(anchorOf('flows.flows.lp17ch17pr5.2', anchors)).toBe('flows.flows.lp17ch17pr5.2');
    expect(anchorOf('split.experiment.plannedPerArm', anchors)).toBe(
      'split.experiment.plannedPerArm',
    );
  });

  it('beside the nearest enclosing group when no control edits that path', () => {
    // The total of the weights: the weights' group.
    expect(anchorOf('split.variants', anchors)).toBe('split.variants');
    // A screen index the form does not show (the document changed since): the flow.
    expect(anchorOf('flows.flows.default.40', anchors)).toBe('flows.flows.default');
    // A variant the worker names that the draft does not hold: the weights' group.
    expect(anchorOf('split.variants.gone.weight', anchors)).toBe('split.variants');
  });

  it('in the summary only when the form has no place for it', () => {
    expect(anchorOf('split.defaultVariant', anchors)).toBeNull();
    expect(anchorOf('split', anchors)).toBeNull();
    expect(anchorOf('', anchors)).toBeNull();
  });

  it('groups the errors by place and leaves the placeless out', () => {
    const placed = placeErrors(
      [
        { path: 'split.variants', message: 'weights must add up to a positive finite number' },
        { path: 'split.variants.lp17.weight', message: 'must not be negative' },
        { path: 'split.variants.lp17.weight', message: 'must be a finite number' },
        { path: 'split.defaultVariant', message: '"x" is not one of the variants' },
      ],
      anchors,
    );
    expect([...placed.keys()]).toEqual(['split.variants', 'split.variants.lp17.weight']);
    expect(placed.get('split.variants.lp17.weight')?.map((e) => e.message)).toEqual([
      'must not be negative',
      'must be a finite number',
    ]);
  });

  it('names each field as a marketer would in the summary', () => {
    expect(fieldLabel('split.variants')).toBe('Weights');
    expect(fieldLabel('split.variants.lp1.weight')).toBe('Weight of lp1');
    expect(fieldLabel('split.variants.lp1/b.flow')).toBe('Flow of lp1/b');
    expect(fieldLabel('split.variants.lp1')).toBe('Variant lp1');
    expect(fieldLabel('flows.flows.x.2')).toBe('Flow x, screen 3');
    expect(fieldLabel('flows.flows.x')).toBe('Flow x');
    expect(fieldLabel('flows.flows')).toBe('Flows');
    expect(fieldLabel('split.defaultVariant')).toBe('Default variant');
    expect(fieldLabel('split.experiment.primaryMetric')).toBe('Primary metric');
    expect(fieldLabel('split.experiment.plannedPerArm')).toBe('Planned visitors per variant');
    expect(fieldLabel('split.experiment')).toBe('The experiment settings');
    expect(fieldLabel('flows')).toBe('The flows');
    expect(fieldLabel('experiments.experiments.lp-ai.decision.action')).toBe(
      'Decision on experiment lp-ai',
    );
    expect(fieldLabel('experiments.experiments.lp-ai.range')).toBe('Experiment lp-ai');
    expect(fieldLabel('')).toBe('The config');
  });
});
