import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VITALS_SAMPLE_RATE,
  inVitalsSample,
  pageVitals,
  vitalsSampleRate,
} from '../../../worker/collector/vitals-sample';
import { shardOfVisitor } from '../../../worker/experiments/assignment/visitor-shard';

/** Random-looking v4 uuids, the same on every run. */
function uuids(count: number): string[] {
  let state = 12345;
  const hex = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8).toString(16).padStart(6, '0');
  };
  return Array.from({ length: count }, () => {
    const digits = `${hex()}${hex()}${hex()}${hex()}${hex()}${hex()}`.slice(0, 32);
    return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-4${digits.slice(13, 16)}-a${digits.slice(17, 20)}-${digits.slice(20)}`;
  });
}

describe('the field vitals sample', () => {
  it('takes a tenth of the visitors by default, set by VITALS_SAMPLE_RATE from 0 to 1', () => {
    expect(vitalsSampleRate({})).toBe(DEFAULT_VITALS_SAMPLE_RATE);
    expect(DEFAULT_VITALS_SAMPLE_RATE).toBe(0.1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '0.25' })).toBe(0.25);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '1' })).toBe(1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '0' })).toBe(0);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '7' })).toBe(1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '-1' })).toBe(0);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: 'ten percent' })).toBe(0.1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '' })).toBe(0.1);
  });

  it('draws that share of visitors, within the binomial spread', () => {
    const visitors = uuids(100_000);
    for (const rate of [0.1, 0.5]) {
      const taken = visitors.filter((id) => inVitalsSample(id, rate)).length;
      const spread = 4 * Math.sqrt(visitors.length * rate * (1 - rate));
      expect(Math.abs(taken - visitors.length * rate)).toBeLessThan(spread);
    }
    expect(visitors.filter((id) => inVitalsSample(id, 0)).length).toBe(0);
    expect(visitors.filter((id) => inVitalsSample(id, 1)).length).toBe(visitors.length);
  });

  it('keeps a visitor in or out for good, whatever the letters’ case', () => {
    for (const id of uuids(200)) {
      const first = inVitalsSample(id, 0.1);
      expect(inVitalsSample(id, 0.1)).toBe(first);
      expect(inVitalsSample(id.toUpperCase(), 0.1)).toBe(first);
    }
  });

  it('a larger share keeps everyone a smaller one took', () => {
    const visitors = uuids(5000);
    for (const id of visitors.filter((visitor) => inVitalsSample(visitor, 0.1))) {
      expect(inVitalsSample(id, 0.3)).toBe(true);
    }
  });

  it('is drawn apart from the experiment shards: every shard has about its tenth', () => {
    const visitors = uuids(64_000);
    const perShard = new Array<number>(64).fill(0);
    for (const id of visitors) if (inVitalsSample(id, 0.1)) perShard[shardOfVisitor(id)]!++;
    // 100 expected per shard; all shards within a wide binomial band.
    expect(Math.min(...perShard)).toBeGreaterThan(50);
    expect(Math.max(...perShard)).toBeLessThan(150);
  });

  it('hands a page its arms only inside the sample, and works them out only then', () => {
    let asked = 0;
    const arms = () => {
      asked++;
      return [{ experiment: 'landing-hero', variant: 'b' }];
    };
    const [inside] = uuids(50).filter((id) => inVitalsSample(id, 0.1));
    const [outside] = uuids(50).filter((id) => !inVitalsSample(id, 0.1));
    expect(pageVitals({}, outside!, arms)).toBeUndefined();
    expect(asked).toBe(0);
    expect(pageVitals({}, inside!, arms)).toEqual({ arms: { 'landing-hero': 'b' } });
    expect(pageVitals({ VITALS_SAMPLE_RATE: '0' }, inside!, arms)).toBeUndefined();
  });
});
