/**
 * `npm test` runs the suite as two Vitest processes side by side (scripts/test.ts): the projects
 * that wait on Chromium and workerd as much as they work, first (the browser files, then the
 * worker groups, in vitest.config.ts's group order), and beside them, at a lower priority, the
 * projects bound by their own work (the unit files and the CLIs), which take the cores the first
 * leave idle. Every project of vitest.config.ts is in one of the two
 * (test/unit/test-parts.test.ts).
 */
export const TEST_PARTS = {
  first: ['browser', 'worker-apart', 'worker'],
  beside: ['unit', 'unit-mocks', 'cli'],
} as const;

/**
 * The nice of the part beside: a browser file with work to do gets the core first. At 10 a
 * waiting unit thread still gets about a tenth of a busy core, so no unit test starves into its
 * timeout (at 19 it would get 1.5 %).
 */
export const BESIDE_NICE = 10;
