import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../shared/api/answer-fields';
import {
  DEEPLINK_CONSUME_ANSWER,
  PORTAL_ANSWERS,
  PORTAL_REFUSAL,
} from '../../../shared/api/portal-answers';

/**
 * docs/product-api.md's table "The product API's answers, field by field" is what ops and the product
 * API's owners read to know which fields a step needs: it must list every field the worker reads,
 * with the rule the code applies, and nothing the code does not read.
 */

const SHAPES: Record<string, Field<unknown>> = {
  ...PORTAL_ANSWERS,
  deeplinkConsume: DEEPLINK_CONSUME_ANSWER,
  'refusal (any non-2xx)': PORTAL_REFUSAL,
};

function documentedTable(): string[] {
  const page = readFileSync('docs/product-api.md', 'utf8');
  const start = page.indexOf("## The product API's answers, field by field");
  expect(start, 'the section is in docs/product-api.md').toBeGreaterThan(-1);
  const section = page.slice(start).split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| call ') && !/^\|-/.test(line))
    .flatMap((line) => {
      const [calls = '', field = '', rule = ''] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      const path = field.replaceAll('`', '');
      return calls.split(', ').map((call) => `${call} ${path} ${rule}`);
    });
}

describe("docs/product-api.md's table of the product API's fields", () => {
  it('lists every field the worker reads with its rule, and no other', () => {
    const inCode = Object.entries(SHAPES).flatMap(([call, shape]) =>
      shape.rules('').map(({ path, rule }) => `${call} ${path} ${rule}`),
    );
    expect(documentedTable().sort()).toEqual(inCode.sort());
  });
});
