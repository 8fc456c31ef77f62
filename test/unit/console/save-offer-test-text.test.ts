import { describe, expect, it } from 'vitest';
import { changesNothing } from '../../../console/experiments/experiment-presets';
import { changeText, experimentAudienceText } from '../../../console/experiments/experiment-texts';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { DEFAULT_ROUTING } from '../../../worker/config/defaults';

/**
 * A save offer test (docs/experiments.md, "Testing the save offer") in the experiments area's
 * words: who it takes is subscribers on their page, not a route's visitors, and what its variant
 * changes is the save offer it names.
 */

const saveTest: ExperimentDocument = {
  name: 'Half price',
  status: 'running',
  layer: 'subscriber',
  range: [0, 0.5],
  audience: {},
  coverage: 0.8,
  seed: 'save-half',
  control: 'a',
  variants: {
    a: { weight: 1, change: {} },
    b: { weight: 1, change: { saveOffer: 'half_price' } },
  },
};

describe('a save offer test in words', () => {
  it('takes subscribers on their page, in its stretch of layer subscriber', () => {
    expect(experimentAudienceText(saveTest, DEFAULT_ROUTING)).toBe(
      "Subscribers who cancel from the subscriber's page: 80% of those in 0%–50% of the layer subscriber.",
    );
  });

  it('names the save offer its variant shows, which is a change', () => {
    const change = saveTest.variants.b!.change;
    expect(changeText(change)).toBe('the save offer half_price');
    expect(changesNothing(change)).toBe(false);
  });
});
