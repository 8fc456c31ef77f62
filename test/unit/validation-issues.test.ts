import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueText, issueTexts } from '../../shared/validation-issues';

const Doc = z.object({ variants: z.record(z.string(), z.object({ weight: z.number().min(0) })) });

describe('the one printer of schema issues', () => {
  it('names the path, else the root it is given, else the bare message', () => {
    const nested = Doc.safeParse({ variants: { a: { weight: -1 } } });
    expect(issueTexts(nested.error!)).toEqual([
      'variants.a.weight: Too small: expected number to be >=0',
    ]);
    const whole = Doc.safeParse(42);
    const [issue] = whole.error!.issues;
    expect(issueText(issue!)).toBe('body: Invalid input: expected object, received number');
    expect(issueText(issue!, '(root)')).toBe(
      '(root): Invalid input: expected object, received number',
    );
    expect(issueText(issue!, null)).toBe('Invalid input: expected object, received number');
  });

  it('stops at the limit', () => {
    const many = z.array(z.string()).safeParse([1, 2, 3, 4, 5, 6, 7]);
    expect(issueTexts(many.error!, 'body', 5)).toHaveLength(5);
    expect(issueTexts(many.error!)).toHaveLength(7);
  });
});
