import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type Field, readAnswer } from '../../../shared/api/answer-fields';
import { API_CALLS, ApiErrorBody, DeeplinkConsumeResponse } from '../../../shared/api/contract';
import {
  DEEPLINK_CONSUME_ANSWER,
  PORTAL_ANSWERS,
  PORTAL_REFUSAL,
} from '../../../shared/api/portal-answers';
import { CANONICAL_ANSWERS, LOOKED_UP, withField } from './portal-answer-samples';

/**
 * Properties of reading the product API's answers (shared/api/portal-answers.ts), over answers
 * made from the contract's own by dropping, nulling, retyping and adding fields: nothing throws,
 * an answer is refused only when a field the step needs is gone, and whatever is taken has the
 * shape the browser is promised.
 */

type Answer = keyof typeof CANONICAL_ANSWERS;

const SHAPES: Record<Answer, Field<unknown>> = {
  ...PORTAL_ANSWERS,
  deeplinkConsume: DEEPLINK_CONSUME_ANSWER,
  refusal: PORTAL_REFUSAL,
};

/** What the browser is promised for each answer (sign-in answers: the worker then drops the token). */
const PROMISED: Record<Answer, z.ZodType> = {
  ...Object.fromEntries(Object.entries(API_CALLS).map(([call, { response }]) => [call, response])),
  deeplinkConsume: DeeplinkConsumeResponse,
  refusal: ApiErrorBody,
} as unknown as Record<Answer, z.ZodType>;

/** Strings a mutation writes carry this, so a warning that repeats a value is caught. */
const MARK = 'SECRET-';

const jsonOtherThanAbsent = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }).map((text) => `${MARK}${text}`),
  fc.constantFrom('1', '0', 'true', 'TRUE', '6.99', 'US', 'stripe', 'https://x.example/q.png'),
  fc.constantFrom('data:image/png;base64,AA==', 'http://x.example/', ''),
  fc.array(
    fc.string({ maxLength: 4 }).map((text) => `${MARK}${text}`),
    { maxLength: 3 },
  ),
  fc.dictionary(
    fc.constantFrom('lat', 'lng', 'lon', 'messages', 'x', 'status'),
    fc.oneof(fc.double({ min: -200, max: 200, noNaN: true }), fc.string({ maxLength: 3 })),
    { maxKeys: 3 },
  ),
);

type Mutation =
  | { op: 'drop' | 'null'; path: string }
  | { op: 'retype'; path: string; value: unknown }
  | { op: 'add'; path: string; value: unknown };

function mutations(answer: Answer): fc.Arbitrary<Mutation[]> {
  const paths = SHAPES[answer].rules('').map((rule) => rule.path);
  const path = fc.constantFrom(...paths);
  // A field is added beside others: at the top, or in an object of fields.
  const objects = paths.filter((at) => paths.some((other) => other.startsWith(`${at}.`)));
  const extraKey = fc.constantFrom('extra', 'meta', '__proto__', 'constructor', 'debug');
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ op: fc.constantFrom('drop' as const, 'null' as const), path }),
    fc.record({ op: fc.constant('retype' as const), path, value: jsonOtherThanAbsent }),
    fc.record({
      op: fc.constant('add' as const),
      path: fc
        .tuple(fc.constantFrom('', ...objects), extraKey)
        .map(([at, key]) => (at ? `${at}.${key}` : key)),
      value: jsonOtherThanAbsent,
    }),
  );
  return fc.array(mutation, { maxLength: 4 });
}

function apply(answer: unknown, changes: Mutation[]): unknown {
  return changes.reduce((value, change) => {
    if (change.op === 'drop') return withField(value, change.path, undefined);
    if (change.op === 'null') return withField(value, change.path, null);
    if (change.op === 'retype' || change.op === 'add')
      return withField(value, change.path, change.value);
    return value;
  }, answer);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(value: unknown, path: string): unknown {
  let into: unknown = value;
  for (const key of path.split('.')) {
    if (!isRecord(into) || !Object.hasOwn(into, key)) return undefined;
    into = into[key];
  }
  return into;
}

/**
 * Whether a field the step needs is plainly gone from `mutated`: absent or null, or an object of
 * fields that is not an object, where every optional object around it is there (a final polling
 * result needs its status; a pending one has no result to need it in).
 */
function requiredGone(answer: Answer, mutated: unknown): boolean {
  const rules = SHAPES[answer].rules('');
  const ruleOf = new Map(rules.map(({ path, rule }) => [path, rule]));
  const isObjectPath = (path: string) => rules.some((rule) => rule.path.startsWith(`${path}.`));
  return rules.some(({ path, rule }) => {
    if (rule !== 'required') return false;
    const parts = path.split('.');
    for (let i = 1; i < parts.length; i++) {
      const ancestor = parts.slice(0, i).join('.');
      if (ruleOf.get(ancestor) === 'optional' && !isRecord(valueAt(mutated, ancestor))) {
        return false;
      }
    }
    const value = valueAt(mutated, path);
    return value === undefined || value === null || (isObjectPath(path) && !isRecord(value));
  });
}

/** Whether any change reached a required field, or an object holding one. */
function touchesRequired(answer: Answer, changes: Mutation[]): boolean {
  const required = SHAPES[answer]
    .rules('')
    .filter((rule) => rule.rule === 'required')
    .map((rule) => rule.path);
  return changes.some(
    (change) =>
      change.op !== 'add' &&
      required.some((path) => path === change.path || path.startsWith(`${change.path}.`)),
  );
}

const ANSWERS = Object.keys(CANONICAL_ANSWERS) as Answer[];

describe('reading answers a real product API may send', () => {
  it.each(ANSWERS)(
    '%s: never throws, and refuses only without a field the step needs',
    (answer) => {
      fc.assert(
        fc.property(mutations(answer), (changes) => {
          const mutated = apply(CANONICAL_ANSWERS[answer], changes);
          const reading = readAnswer(SHAPES[answer], mutated, { phone: LOOKED_UP });
          if (requiredGone(answer, mutated)) expect(reading.ok).toBe(false);
          if (!touchesRequired(answer, changes)) expect(reading.ok).toBe(true);
          for (const { found } of reading.drift) {
            expect(found).toMatch(/^(missing|null|number|string|boolean|object|array)( \(.+\))?$/);
          }
          expect(JSON.stringify(reading.drift)).not.toContain(MARK);
          if (reading.ok) {
            const promised = PROMISED[answer].safeParse(reading.value);
            expect(promised.error?.issues ?? []).toEqual([]);
            // What reaches the page is plain JSON: it survives a round trip unchanged.
            const json = JSON.stringify(reading.value);
            expect(JSON.stringify(JSON.parse(json))).toBe(json);
          }
        }),
        { numRuns: 300 },
      );
    },
  );

  it.each(ANSWERS)('%s: a body that is not an object is no answer at all', (answer) => {
    fc.assert(
      fc.property(jsonOtherThanAbsent, (body) => {
        fc.pre(!isRecord(body));
        const reading = readAnswer(SHAPES[answer], body, { phone: LOOKED_UP });
        expect(reading).toEqual({ ok: false, missing: '(body)', drift: [] });
      }),
      { numRuns: 50 },
    );
  });
});
