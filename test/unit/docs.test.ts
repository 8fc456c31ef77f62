import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPage, documentationPages, headingAnchor, readProjectFacts } from './docs-check';

/**
 * README.md and docs/ cannot rot quietly: every relative link lands on a file (and a heading),
 * every `npm run` names a script of package.json, and every environment name is the project's
 * (the rule is in docs-check.ts). The broken fixture proves each kind of rot is caught.
 */

const ROOT = process.cwd();
const facts = readProjectFacts(ROOT);

describe('the documentation', () => {
  it.each(documentationPages(ROOT).map((file) => [relative(ROOT, file), file]))(
    '%s: links, scripts and environment names all exist',
    (_, file) => {
      expect(checkPage(file, facts, ROOT)).toEqual([]);
    },
  );

  it('links every page of docs/ from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const unlinked = documentationPages(ROOT)
      .map((file) => relative(ROOT, file))
      .filter((page) => page !== 'README.md' && !readme.includes(`](${page}`));
    expect(unlinked).toEqual([]);
  });

  it('opens every page of docs/ with who it is for, in italics under the title', () => {
    const without = documentationPages(ROOT)
      .filter((file) => !file.endsWith('README.md'))
      .filter((file) => !/^# .+\n\n\*For /.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(without).toEqual([]);
  });
});

describe('the check itself', () => {
  it('finds each kind of rot in a broken page, and nothing else', () => {
    const broken = join(ROOT, 'test/fixtures/docs/broken.md');
    expect(checkPage(broken, facts, ROOT).sort()).toEqual(
      [
        'test/fixtures/docs/broken.md: link to renamed.md: no such file',
        'test/fixtures/docs/broken.md: link to target.md#a-heading-that-is-gone: no heading with that anchor',
        'test/fixtures/docs/broken.md: link to #gone: no heading with that anchor',
        'test/fixtures/docs/broken.md: npm run deploy:everywhere: package.json has no such script',
        'test/fixtures/docs/broken.md: npm run formatting: package.json has no such script',
        'test/fixtures/docs/broken.md: PORTAL_ADDRESS: no such environment variable, binding or secret',
        'test/fixtures/docs/broken.md: OLD_SIGNING_KEY: no such environment variable, binding or secret',
      ].sort(),
    );
  });

  it("reads the project's names from wrangler.toml, worker/env.ts and the tools", () => {
    // wrangler.toml [vars], a binding, a property of an interface Bindings extends, a secret of
    // Bindings, and a variable a script reads.
    for (const name of [
      'ENVIRONMENT',
      'EXPERIMENT_SHARDS',
      'CONSENT_COUNTRIES',
      'LIFECYCLE_HMAC_KEY',
      'CHROME_PATH',
    ])
      expect(facts.environment, name).toContain(name);
    expect(facts.environment).not.toContain('API_CALLS');
    expect(facts.scripts).toContain('docs:screenshots');
  });

  it("makes a heading's anchor as GitHub does", () => {
    expect(headingAnchor("The product API's answers, field by field")).toBe(
      'the-product-apis-answers-field-by-field',
    );
    expect(
      headingAnchor(
        'Renewals, refunds, chargebacks and cancellations: `POST /hooks/subscription-events`',
      ),
    ).toBe('renewals-refunds-chargebacks-and-cancellations-post-hookssubscription-events');
    expect(headingAnchor('Data: what a visitor costs each store (`npm run bench -- data`)')).toBe(
      'data-what-a-visitor-costs-each-store-npm-run-bench----data',
    );
  });
});
