import { configure } from '@testing-library/dom';

/**
 * How long a unit test's `waitFor` and `findBy…` wait for what the page shows before calling it
 * missing: 20 s, under the unit project's 30 s test timeout (vitest.config.ts), so a missing
 * element still names its query. Testing Library's default of 1 s is a time, not a condition: a
 * console dialog that closes once the console has loaded again (a ramp rolled back) took longer
 * with both cores busy and failed so, though nothing was wrong. Not a measure of speed: the
 * suite's budget (test/summary-reporter.ts) and `npm run bench` hold that.
 */
configure({ asyncUtilTimeout: 20_000 });
