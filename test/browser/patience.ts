/**
 * How long one step of a browser test (a click landing, a page or a frame appearing, a poll
 * coming true) may take before the test calls it hung: 90 s, under the tests' 120 s, so a hang
 * still names its step. Not a measure of speed (`npm run bench` holds the budgets): a step of a
 * few seconds on an idle machine took over 30 s, Playwright's default, with a second full suite
 * beside this one (the 3-D Secure challenge's button, checkout.test.ts), and a busy machine must
 * not fail a test that only waited. Every browser context the harness's Chromium makes has it as
 * its default (harness.ts); a test's own waits name it rather than a number of their own.
 */
export const PATIENCE_MS = 90_000;
