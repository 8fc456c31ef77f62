import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import suite from './vitest.config';

/**
 * `npm run test:matrix`: the screen walk's whole cross product (test/matrix/), which `npm test`
 * does not run (vitest.config.ts includes no file of test/matrix). It runs as the browser
 * project does, on the built development worker (`npm run build` first), with that project's
 * settings: whatever the browser tier needs, the matrix gets too.
 */
const browser = suite.test?.projects?.find(
  (project): project is TestProjectInlineConfiguration =>
    typeof project === 'object' && 'test' in project && project.test?.name === 'browser',
);
if (!browser) throw new Error('vitest.config.ts has no browser project for the matrix to run as');

export default defineConfig({
  test: {
    maxWorkers: suite.test?.maxWorkers,
    reporters: suite.test?.reporters,
    includeTaskLocation: suite.test?.includeTaskLocation,
    projects: [
      {
        ...browser,
        test: { ...browser.test, name: 'matrix', include: ['test/matrix/**/*.test.ts'] },
      },
    ],
  },
});
