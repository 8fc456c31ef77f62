import * as z from 'zod';
import { ANSWER_KEY } from './answers';

/**
 * A condition on a visitor's quiz answers, as a flow's branch (./branches.ts) and a result
 * screen's lines (./question.ts `result`) test them: an answer `equals` a value, is `one_of`
 * several, or a number is `between` two. A list of choices meets a value it holds.
 */

/** A question's answer key, as a question declares it and a condition names it. */
export const answerKey = z.string().regex(ANSWER_KEY, 'must be a key such as "who"');

export const branchCondition = z.discriminatedUnion(
  'test',
  [
    z.strictObject({ test: z.literal('equals'), key: answerKey, value: z.string().min(1) }),
    z.strictObject({
      test: z.literal('one_of'),
      key: answerKey,
      values: z.array(z.string().min(1)).min(1, 'must name at least one value').max(12),
    }),
    z
      .strictObject({
        test: z.literal('between'),
        key: answerKey,
        min: z.number(),
        max: z.number(),
      })
      .refine((range) => range.min <= range.max, {
        message: 'must be at least min',
        path: ['max'],
      }),
  ],
  'must be a condition: equals, one_of or between',
);
export type BranchCondition = z.output<typeof branchCondition>;
