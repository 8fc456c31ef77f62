import { describe, expect, it } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import { DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { HASHED_PLACEMENT } from '../../../worker/experiments/assignment/assign';
import { assignExperiments, compileExperiments } from '../../../worker/experiments/config/evaluate';
import { saveOfferArm } from '../../../worker/subscriber-links/save-offer-arm';

/**
 * A save offer test's arm on the subscriber's page (worker/subscriber-links/save-offer-arm.ts):
 * drawn by the subscription id with the test's seeds, so a subscription keeps its arm, the arms
 * take their weights' shares, a range or the coverage takes its share, and a shipped winner
 * shows to everyone without being counted.
 */

const IDS = Array.from({ length: 4000 }, (_, index) => `sub_${index.toString(36)}_live`);

function saveTest(overrides: Partial<ExperimentDocument> = {}): ExperimentDocument {
  return {
    name: 'Half price',
    status: 'running',
    layer: 'subscriber',
    audience: {},
    coverage: 1,
    seed: 'save-half',
    phase: 2,
    control: 'control',
    variants: {
      control: { weight: 1, change: {} },
      half: { weight: 3, change: { saveOffer: 'half_price' } },
    },
    ...overrides,
  };
}

const section = (experiments: Record<string, ExperimentDocument>): ExperimentsDocument => ({
  version: 'v1',
  experiments,
});

const shareOf = (test: (id: string) => boolean) => IDS.filter(test).length / IDS.length;

describe('the arm of a subscription', () => {
  it('is the same on every opening, and the arms take their weights’ shares', () => {
    const doc = section({ save: saveTest() });
    for (const id of IDS.slice(0, 50)) expect(saveOfferArm(doc, id)).toEqual(saveOfferArm(doc, id));
    const half = shareOf((id) => saveOfferArm(doc, id)?.offer === 'half_price');
    expect(half).toBeGreaterThan(0.72);
    expect(half).toBeLessThan(0.78);
    expect(saveOfferArm(doc, IDS[0]!)).toMatchObject({
      experiment: 'save',
      phase: 2,
      counted: true,
    });
    const control = IDS.map((id) => saveOfferArm(doc, id)).find(
      (arm) => arm?.variant === 'control',
    );
    expect(control?.offer).toBeNull();
  });

  it('a range or the coverage takes its share; a test of another layer or not running, none', () => {
    const ranged = section({ save: saveTest({ range: [0, 0.4] }) });
    const inRanged = shareOf((id) => saveOfferArm(ranged, id) !== null);
    expect(inRanged).toBeGreaterThan(0.37);
    expect(inRanged).toBeLessThan(0.43);
    const covered = section({ save: saveTest({ coverage: 0.25 }) });
    const inCovered = shareOf((id) => saveOfferArm(covered, id) !== null);
    expect(inCovered).toBeGreaterThan(0.22);
    expect(inCovered).toBeLessThan(0.28);
    for (const other of [saveTest({ status: 'paused' }), saveTest({ layer: 'paywall' })]) {
      expect(IDS.some((id) => saveOfferArm(section({ save: other }), id) !== null)).toBe(false);
    }
  });

  it('two tests with ranges apart never take the same subscription', () => {
    const doc = section({
      first: saveTest({ range: [0, 0.5] }),
      second: saveTest({ seed: 'save-other', range: [0.5, 1] }),
    });
    const arms = IDS.map((id) => saveOfferArm(doc, id)?.experiment);
    expect(arms.every((experiment) => experiment !== undefined)).toBe(true);
    const first = arms.filter((experiment) => experiment === 'first').length / IDS.length;
    expect(first).toBeGreaterThan(0.46);
    expect(first).toBeLessThan(0.54);
  });

  it('a shipped winner rolled out shows to every subscription, counted nowhere', () => {
    const shipped = saveTest({
      status: 'shipped',
      decision: {
        result: 'won',
        action: 'roll_out',
        variant: 'half',
        at: '2026-11-01T00:00:00Z',
        by: 'ana@example.com',
        evidence: {
          phase: 2,
          metric: 'purchase',
          relativeLift: 0.1,
          interval: [0.02, 0.18],
          verdict: 'won',
          srmAlarm: false,
        },
      },
    });
    const doc = section({ save: shipped });
    expect(IDS.map((id) => saveOfferArm(doc, id)).every((arm) => arm?.offer === 'half_price')).toBe(
      true,
    );
    expect(saveOfferArm(doc, IDS[0]!)?.counted).toBe(false);
  });
});

describe('the funnel', () => {
  it('draws no visitor into a save offer test: the subscriber’s page draws it', () => {
    const content = { screens: {} };
    const compiled = compileExperiments(
      section({ save: saveTest() }),
      DEFAULT_SPLIT,
      DEFAULT_ROUTING,
      content,
    );
    const assigned = Array.from({ length: 50 }, (_, n) =>
      assignExperiments(
        compiled,
        {
          visitorId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          route: 'default',
          facts: { get: () => null },
          pins: new Map(),
          now: 0,
        },
        HASHED_PLACEMENT,
      ),
    ).flat();
    expect(assigned.filter((assignment) => assignment.experiment === 'save')).toEqual([]);
  });
});
