/**
 * `npm test` runs the suite as two Vitest processes side by side (scripts/test.ts): the projects
 * that wait on Chromium and workerd as much as they work, first (the browser files, then the
 * worker groups, in vitest.config.ts's group order), and beside them the projects bound by their
 * own work (the unit files and the CLIs), which fill the cores the first leave idle while they
 * wait. Every project of vitest.config.ts is in one of the two (test/unit/test-parts.test.ts).
 *
 * At the same priority, not below it: niced 10, the part beside got about a tenth of a core
 * whenever the browser files had work, and eleven of its tests passed their timeouts (a unit
 * test of the phone form at 5 s, the config CLI at 120 s, the warehouse's setup at 180 s), where
 * a timeout is to stop a test that hangs.
 */
export const TEST_PARTS = {
  first: ['browser', 'worker-apart', 'worker'],
  beside: ['unit', 'unit-mocks', 'cli'],
} as const;
