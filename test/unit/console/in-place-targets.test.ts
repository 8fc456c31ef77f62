import { describe, expect, it } from 'vitest';
import { copyProblems } from '../../../console/content/copy-problems';
import { textMatcher } from '../../../console/content/in-place-targets';

describe('finding a copy key’s text on the drawn page', () => {
  it('matches the whole text, whatever its spacing', () => {
    const matches = textMatcher('Find out where your loved ones are');
    expect(matches?.('  Find out where\n  your loved ones are ')).toBe(true);
    expect(matches?.('Find out where your loved ones are now')).toBe(false);
    expect(matches?.('Find out')).toBe(false);
  });

  it('matches a text with its placeholders filled in', () => {
    const matches = textMatcher('Step {{step}} of {{steps}}');
    expect(matches?.('Step 2 of 5')).toBe(true);
    expect(matches?.('Step 2 of')).toBe(false);
    // Regular-expression characters in the text are the text's own.
    expect(textMatcher('Only $4.99 (today)?')?.('Only $4.99 (today)?')).toBe(true);
    expect(textMatcher('Only $4.99 (today)?')?.('Only $4x99 (today)')).toBe(false);
  });

  it('leaves out what cannot be told by what it says', () => {
    expect(textMatcher('{{title}} · {{brand}}')).toBeNull();
    expect(textMatcher('Read <1>the terms</1>')).toBeNull();
    expect(textMatcher('$t(common.brand) app')).toBeNull();
  });
});

describe('a text typed in place or in its field', () => {
  const base = {
    key: 'kit.progress.step',
    english: 'Step {{step}} of {{steps}}',
    maxChars: 30,
    path: 'content.screens.one_pager.copy.en.kit.progress.step',
    issues: [],
  };
  it('is whole with its placeholders and within its limit', () => {
    expect(copyProblems({ ...base, text: 'Stage {{step}}/{{steps}}' })).toEqual([]);
  });
  it('says a lost placeholder, an unknown one, and the length over', () => {
    expect(copyProblems({ ...base, text: 'Step {{step}} of {{total}}, nearly there' })).toEqual([
      'lacks {{steps}}',
      'unknown {{total}}',
      '10 characters over the limit',
    ]);
  });
  it('says what the worker’s check said at its path', () => {
    const issues = [{ path: base.path, message: 'must be given' }];
    expect(copyProblems({ ...base, issues, text: 'Step {{step}} of {{steps}}' })).toEqual([
      'must be given',
    ]);
  });
});
