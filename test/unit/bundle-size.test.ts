import { describe, expect, it } from 'vitest';
import {
  BUNDLE_GZIP_BUDGET,
  budgetFailure,
  largestModules,
  sizeReport,
} from '../../scripts/bundle-size';

/**
 * What `npm run build` prints of the production worker's weight, and what fails the bench
 * (scripts/bundle-size.ts), on made-up figures; the real bundle's modules are read in
 * production-bundle.test.ts.
 */

const modules = Object.fromEntries(
  Array.from({ length: 14 }, (_, index) => [`module-${index}.ts`, { bytesInOutput: index * 100 }]),
);

describe('the size print of npm run build', () => {
  it('lists the ten modules with the most bytes in the bundle, largest first', () => {
    expect(largestModules(modules).map(({ module }) => module)).toEqual(
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((index) => `module-${index}.ts`),
    );
  });

  it('says the gzip size against the budget, then each module with its share', () => {
    const report = sizeReport(
      'dist/worker/index.js',
      { raw: 1_300_000, gzip: 413_606 },
      largestModules({ 'node_modules/i18next/i18next.js': { bytesInOutput: 50_241 } }),
    );
    expect(report.split('\n')).toEqual([
      'Production worker (dist/worker/index.js): 1,300,000 B raw, 413,606 B gzip;' +
        ' budget 471,040 B gzip, 57,434 B under it.',
      "Its 1 largest modules (minified bytes in the bundle, esbuild's metafile):",
      '  50,241 B  3.9%  node_modules/i18next/i18next.js',
    ]);
  });
});

describe('the budget in the bench', () => {
  it('passes a worker at its budget', () => {
    expect(budgetFailure('w.js', { raw: 1, gzip: BUNDLE_GZIP_BUDGET })).toBeNull();
  });

  it('fails a worker one byte above it, saying by how much', () => {
    expect(budgetFailure('w.js', { raw: 1, gzip: BUNDLE_GZIP_BUDGET + 1 })).toBe(
      'The bench fails: Production worker (w.js): 1 B raw, 471,041 B gzip;' +
        ' budget 471,040 B gzip, 1 B ABOVE IT: cut before shipping.',
    );
  });
});
