import { describe, expect, it } from 'vitest';
import { TEST_PARTS } from '../../scripts/test-parts';
import suite from '../../vitest.config';

/**
 * `npm test`'s two Vitest processes (scripts/test-parts.ts) run every project of
 * vitest.config.ts, each once: a project added there and to neither part would never run.
 */
describe("npm test's two parts", () => {
  it('hold every project of vitest.config.ts, each in one part', () => {
    const { projects = [] } =
      (suite as { test?: { projects?: { test?: { name?: string } }[] } }).test ?? {};
    const names = projects.map((project) => project.test?.name);
    const parts = [...TEST_PARTS.first, ...TEST_PARTS.beside];
    expect(new Set(parts).size).toBe(parts.length);
    expect([...parts].sort()).toEqual([...names].sort());
  });
});
