import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { madeBy, takeLandedWrites } from './late-writes';

const HERE = '/repo/test/worker/here.test.ts';

it('takes a write the runner leads to, or whose stack names the file running, as the file’s own', () => {
  const fromHook =
    'Error\n    at put (late-writes.ts:1:1)\n    at runHook (node_modules/@vitest/runner/dist/index.js:1:1)';
  expect(madeBy(fromHook, HERE)).toBe(true);
  const awaited =
    'Error\n    at put (late-writes.ts:1:1)\n    at async publish (/repo/test/worker/here.test.ts:9:9)';
  expect(madeBy(awaited, HERE)).toBe(true);
  const another =
    'Error\n    at put (late-writes.ts:1:1)\n    at async publish (/repo/test/worker/there.test.ts:9:9)';
  expect(madeBy(another, HERE)).toBe(false);
  expect(
    madeBy(
      'Error\n    at put (late-writes.ts:1:1)\n    at async publish (worker/config/publish.ts:1:1)',
      HERE,
    ),
  ).toBe(false);
});

it('sees a config write that no test waits for, made from outside this file', async () => {
  // Called by a timer, as work nobody waited for is: no test, hook or file of this one on its stack.
  setTimeout(env.FUNNEL_CONFIG.put, 0, 'split', '{}');
  await expect.poll(() => env.FUNNEL_CONFIG.get('split')).toBe('{}');
  expect(takeLandedWrites().map(({ key }) => key)).toEqual(['split']);
});

it('takes this file’s own writes as its own', async () => {
  await env.FUNNEL_CONFIG.put('split', '{}');
  expect(takeLandedWrites()).toEqual([]);
});
