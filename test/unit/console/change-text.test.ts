import { describe, expect, it } from 'vitest';
import { changeText, valueText } from '../../../console/kit/change-text';

describe('a difference between two documents as a line', () => {
  it('shows a changed value as before → after', () => {
    expect(
      changeText({ path: 'split.variants.lp1.weight', kind: 'changed', before: 50, after: 30 }),
    ).toBe('split.variants.lp1.weight: 50 → 30');
    expect(
      changeText({
        path: 'flows.flows.lp1',
        kind: 'changed',
        before: ['one_pager', 'signup'],
        after: ['signup', 'one_pager'],
      }),
    ).toBe('flows.flows.lp1: [one_pager, signup] → [signup, one_pager]');
  });

  it('says what was added and what was removed', () => {
    expect(
      changeText({ path: 'split.variants.lp18', kind: 'added', after: { weight: 10, flow: 'x' } }),
    ).toBe('split.variants.lp18: added {weight: 10, flow: x}');
    expect(changeText({ path: 'split.variants.lp3.flow', kind: 'removed', before: 'lp3' })).toBe(
      'split.variants.lp3.flow: removed (was lp3)',
    );
  });

  it('names a missing value instead of printing undefined', () => {
    expect(valueText(undefined)).toBe('(none)');
    expect(valueText(null)).toBe('null');
    expect(changeText({ path: 'split.phase', kind: 'changed', after: 2 })).toBe(
      'split.phase: (none) → 2',
    );
  });
});
