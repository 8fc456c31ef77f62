import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { BUILT_BUNDLES } from '../../scripts/built-bundles';
import { bundleMeta } from '../../scripts/bundle-size';
import { WRANGLER_CONFIG } from '../../scripts/local-platform';

/**
 * Production carries only production (ARCHITECTURE.md "Production code never
 * imports development-only code"): the bundle `npm run deploy` ships holds neither the embedded
 * portal emulator nor the test gateway nor the development entry. Read from the esbuild metafiles
 * `npm run build` writes beside each bundle (`npm test` builds first; nothing is built here).
 */

/** The modules one built bundle was made of, as paths relative to the project root. */
function bundledModules(bundle: string): { entryPoint: string; modules: string[] } {
  const { entryPoint, modules } = bundleMeta(bundle);
  return { entryPoint, modules: Object.keys(modules) };
}

/** What only the development entry may carry, by the path of the module. */
const DEVELOPMENT_ONLY: Record<string, RegExp> = {
  'the embedded portal emulator': /^portal\//,
  // Its paths and message shapes (shared/test-gateway-protocol.ts) are not: the checkout island's
  // browser adapter imports them, and the islands are bundled for server rendering.
  'the test gateway': /^(portal\/test-gateway\/|worker\/(routes|dev)\/test-gateway|test-gateway\/)/,
  'the development entry and kit': /^worker\/(dev\.ts$|dev\/)/,
  // Staging's and development's (worker/staging.ts, worker/dev.ts): made-up visitors' results.
  'the simulator': /^worker\/(simulation\/|staging\.ts$)/,
  "the emulator's phone metadata (libphonenumber-js/max)":
    /node_modules\/libphonenumber-js\/(max\/|metadata\.max\.json)/,
  "the emulator's QR codes (qrcode)": /node_modules\/qrcode\//,
};

function developmentOnlyIn(modules: string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(DEVELOPMENT_ONLY).map(([what, path]) => [
      what,
      modules.filter((module) => path.test(module)),
    ]),
  );
}

describe('the production bundle (dist/worker, what npm run deploy ships)', () => {
  it('is built from the production entry, worker/index.ts', () => {
    expect(bundledModules(BUILT_BUNDLES.production).entryPoint).toBe('worker/index.ts');
  });

  it('contains no emulator, test gateway, development entry, libphonenumber-js/max or qrcode', () => {
    const found = developmentOnlyIn(bundledModules(BUILT_BUNDLES.production).modules);
    for (const [what, modules] of Object.entries(found)) expect(modules, what).toEqual([]);
  });

  it("carries none of the development pages' text either", () => {
    const code = readFileSync(BUILT_BUNDLES.production, 'utf8');
    expect(code).not.toContain('3D Secure test authentication');
    expect(code).not.toContain('emulator_faults');
    // The development kit's geocoder (worker/dev/geocoder.ts) and its failure.
    expect(code).not.toContain('Emulated failure of geocode');
    // The simulator's development door (worker/dev/simulate-route.ts): nobody can write made-up
    // results. (The console's door is mounted only for an entry that passes a simulator.)
    expect(code).not.toContain('/__dev/experiments/simulate');
    expect(code).not.toContain('emptyExperimentPhase');
  });
});

describe('the copy in the production bundle', () => {
  // The other languages are static assets, loaded at first use (worker/translations/source.ts).
  it('is English alone', () => {
    const { modules } = bundledModules(BUILT_BUNDLES.production);
    const copy = modules.filter((module) => module.startsWith('locales/'));
    expect(copy.filter((module) => !/^locales\/(en\/|index\.ts$)/.test(module))).toEqual([]);
    expect(copy).toContain('locales/en/landing.json');
  });
});

/**
 * The modules the islands import as `#browser-only/<path>` (package.json "imports"), read from
 * the sources, so one added later is held to the same rule.
 */
function browserOnlyModules(): string[] {
  const specifier = /import\(\s*'#browser-only\/([^']+)'\s*\)/g;
  const found = new Set<string>();
  for (const file of readdirSync('islands', { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file)) continue;
    for (const [, path] of readFileSync(join('islands', file), 'utf8').matchAll(specifier)) {
      found.add(`${path}.ts`);
    }
  }
  return [...found].sort();
}

describe('code only the browser runs (package.json imports, #browser-only/*)', () => {
  // The islands load it lazily in the browser; the worker renders the islands but never runs it.
  it.each(Object.entries(BUILT_BUNDLES))('is not in the %s bundle', (_, bundle) => {
    const { modules } = bundledModules(bundle);
    const lazy = browserOnlyModules();
    expect(lazy).toEqual(
      expect.arrayContaining([
        'islands/phone/phone-checks.ts',
        'islands/payments/providers/stripe.ts',
        'islands/payments/providers/braintree.ts',
        'shared/qr-code.ts',
      ]),
    );
    expect(modules).toContain('islands/browser-only-on-worker.ts');
    // The development bundle's embedded portal draws QR codes of its own (portal/routes).
    const elsewhere = bundle === BUILT_BUNDLES.development ? ['shared/qr-code.ts'] : [];
    expect(lazy.filter((path) => modules.includes(path) && !elsewhere.includes(path))).toEqual([]);
    const libraries =
      /node_modules\/(braintree-web|@stripe\/stripe-js)\/|libphonenumber-js\/es6\/AsYouType/;
    expect(modules.filter((module) => libraries.test(module))).toEqual([]);
  });
});

describe('libraries swapped on the worker (wrangler.toml [alias])', () => {
  // The worker renders with React's streaming renderer only (screens/layout/Island.tsx):
  // react-dom/server's legacy renderToString is 100 KB no request runs.
  it.each(Object.entries(BUILT_BUNDLES))(
    'the %s bundle renders with the streaming renderer alone',
    (_, bundle) => {
      const { modules } = bundledModules(bundle);
      expect(modules.filter((module) => module.includes('react-dom-server-legacy'))).toEqual([]);
      expect(modules).toContain('node_modules/react-dom/cjs/react-dom-server.edge.production.js');
    },
  );
});

describe('the development bundle (dist/dev-worker, what the browser tests serve)', () => {
  it('is built from the development entry and carries every part the check above looks for', () => {
    const { entryPoint, modules } = bundledModules(BUILT_BUNDLES.development);
    expect(entryPoint).toBe('worker/dev.ts');
    // So the production check cannot pass by matching nothing.
    for (const [what, found] of Object.entries(developmentOnlyIn(modules))) {
      expect(found.length, what).toBeGreaterThan(0);
    }
    const code = readFileSync(BUILT_BUNDLES.development, 'utf8');
    expect(code).toContain('3D Secure test authentication');
    expect(code).toContain('emulator_faults');
    expect(code).toContain('Emulated failure of geocode');
    expect(code).toContain('/__dev/experiments/simulate');
    expect(code).toContain('emptyExperimentPhase');
  });
});

describe('the staging deploy (wrangler.toml [env.staging])', () => {
  it('is built from the staging entry, production’s app with the simulator', () => {
    const config = unstable_readConfig({ config: WRANGLER_CONFIG, env: 'staging' });
    expect(config.main).toMatch(/worker\/staging\.ts$/);
    expect(unstable_readConfig({ config: WRANGLER_CONFIG }).main).toMatch(/worker\/index\.ts$/);
  });
});

describe('stack traces of the deployed worker (wrangler.toml upload_source_maps)', () => {
  // The bundle keeps no function names (keep_names = false): a trace reads through the source
  // map the deploy uploads, which names the file, line and function in the source.
  it.each(['', 'staging'])(
    'the %s deploy uploads the source map, which maps to the source',
    (env) => {
      const config = unstable_readConfig({ config: WRANGLER_CONFIG, env: env || undefined });
      expect(config.upload_source_maps).toBe(true);
      expect(config.keep_names).toBe(false);
      const map = JSON.parse(readFileSync(`${BUILT_BUNDLES.production}.map`, 'utf8')) as {
        sources: string[];
        names: string[];
      };
      expect(map.sources.some((source) => source.endsWith('worker/app.tsx'))).toBe(true);
      expect(map.names).toContain('unhandledError');
    },
  );
});
