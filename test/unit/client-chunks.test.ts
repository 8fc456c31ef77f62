import { describe, expect, it } from 'vitest';
import {
  chunkPlan,
  clientChunks,
  type ModuleGraph,
  SMALL_GROUP,
} from '../../scripts/client-chunks';

/**
 * A small funnel's module graph, shaped like the real one: boot with a lazy tracker, a landing
 * island, an error toast on every page, a checkout and an upsell sharing the payment code, and
 * a sign-up form whose lazy sign-up module uses one piece of it.
 */
interface Module {
  imports?: string[];
  lazy?: string[];
  size?: number;
}

const BIG = SMALL_GROUP * 4;

const MODULES: Record<string, Module> = {
  '/islands/boot.ts': { imports: ['/islands/stores/app.ts'], lazy: ['/islands/tracker.ts'] },
  '/islands/stores/app.ts': { size: 100 },
  '/islands/tracker.ts': { imports: ['/islands/stores/events.ts'], size: BIG },
  '/islands/stores/events.ts': { size: BIG },

  '/islands/PhoneForm.tsx': {
    imports: ['/node_modules/react/index.js', '/islands/stores/map.ts', '/islands/stores/error.ts'],
  },
  '/islands/ErrorToast.tsx': {
    imports: ['/node_modules/react/index.js', '/islands/stores/error.ts'],
  },
  '/islands/LocatedBanner.tsx': { imports: ['/islands/stores/map.ts'] },
  '/islands/CheckoutPayment.tsx': {
    imports: [
      '/islands/stores/error.ts',
      '/islands/stores/plans.ts',
      '/islands/payments/attempt.ts',
      '/islands/signup/payment-settings.ts',
      '/islands/stores/events.ts',
      '/islands/payments/card-only.ts',
    ],
    lazy: ['/islands/payments/purchase.ts'],
  },
  '/islands/UpsellPurchase.tsx': {
    imports: [
      '/islands/stores/plans.ts',
      '/islands/payments/attempt.ts',
      '/islands/signup/payment-settings.ts',
      '/islands/stores/events.ts',
    ],
    lazy: ['/islands/payments/purchase.ts'],
  },
  '/islands/DeeplinkQr.tsx': { imports: ['/islands/stores/deeplink.ts'] },
  '/islands/DownloadApp.tsx': { imports: ['/islands/stores/deeplink.ts'] },
  '/islands/OpenInBrowser.tsx': { imports: ['/node_modules/qrcode/lib/browser.js'] },
  '/islands/SignupForm.tsx': {
    imports: ['/islands/stores/error.ts'],
    lazy: ['/islands/signup/sign-up.ts'],
  },

  '/node_modules/react/index.js': { size: BIG },
  '/islands/stores/map.ts': { imports: ['/islands/stores/app.ts'], size: 200 },
  '/islands/stores/error.ts': { size: 300 },
  '/islands/stores/plans.ts': { size: 200 },
  '/islands/payments/attempt.ts': { imports: ['/node_modules/zod/index.js'], size: BIG },
  '/node_modules/zod/index.js': { size: BIG * 10 },
  '/islands/stores/deeplink.ts': { imports: ['/node_modules/qrcode/lib/browser.js'], size: 100 },
  '/node_modules/qrcode/lib/browser.js': { size: BIG },
  '/islands/signup/payment-settings.ts': { size: BIG },
  '/islands/payments/card-only.ts': { size: 100 },
  '/islands/payments/purchase.ts': {
    imports: ['/islands/payments/attempt.ts', '/islands/payments/provider.ts'],
  },
  '/islands/payments/provider.ts': { size: 200 },
  '/islands/signup/sign-up.ts': { imports: ['/islands/signup/payment-settings.ts'] },
};

const graphOf =
  (modules: Record<string, Module>): ModuleGraph =>
  (id) => {
    const module = modules[id];
    if (!module) return null;
    return {
      importedIds: module.imports ?? [],
      dynamicallyImportedIds: module.lazy ?? [],
      code: 'x'.repeat(module.size ?? 500),
    };
  };

const roots = {
  boot: '/islands/boot.ts',
  islands: Object.keys(MODULES).filter((id) => /^\/islands\/[A-Z]\w*\.tsx$/.test(id)),
};

describe('the browser build files', () => {
  const plan = chunkPlan(graphOf(MODULES), roots);

  it('puts boot and what it imports in one file, and leaves its lazy modules to load apart', () => {
    expect(plan.get('/islands/boot.ts')).toBe('boot');
    expect(plan.get('/islands/stores/app.ts')).toBe('boot');
    expect(plan.has('/islands/tracker.ts')).toBe(false);
  });

  it('puts the payment code the checkout and the upsell both load in one file', () => {
    const file = plan.get('/islands/payments/attempt.ts');
    expect(file).toBe('attempt');
    expect(plan.get('/node_modules/zod/index.js')).toBe(file);
    // A store only those two load goes with it, however small.
    expect(plan.get('/islands/stores/plans.ts')).toBe(file);
    // The purchase, loaded lazily from either, does not split that file.
    expect(plan.has('/islands/payments/purchase.ts')).toBe(false);
  });

  it('keeps what the lazy sign-up needs out of that file, so sign-up does not fetch it', () => {
    const settings = plan.get('/islands/signup/payment-settings.ts');
    expect(settings).toBeDefined();
    expect(settings).not.toBe(plan.get('/islands/payments/attempt.ts'));
  });

  it('keeps what the tracker needs on every page apart from what only the checkout needs', () => {
    expect(plan.get('/islands/stores/events.ts')).toBeDefined();
    expect(plan.get('/islands/stores/events.ts')).not.toBe(
      plan.get('/islands/payments/attempt.ts'),
    );
  });

  it('puts the small stores several islands share in one file', () => {
    expect(plan.get('/islands/stores/map.ts')).toBe('shared');
    expect(plan.get('/islands/stores/error.ts')).toBe('shared');
  });

  it('keeps out of the shared file a small module that would bring a large one with it', () => {
    // The deeplink store imports the QR code library: in `shared`, every page would load it.
    expect(plan.get('/islands/stores/deeplink.ts')).toBe('deeplink');
    // The library, which a third island imports as well, has a file of its own, named for it.
    expect(plan.get('/node_modules/qrcode/lib/browser.js')).toBe('qrcode');
  });

  it('gives two groups whose modules are named alike two files, not one', () => {
    const big = { size: BIG };
    const twoIndexes = chunkPlan(
      graphOf({
        ...MODULES,
        '/islands/PhoneForm.tsx': { imports: ['/islands/pixels/index.ts'] },
        '/islands/ErrorToast.tsx': { imports: ['/islands/pixels/index.ts'] },
        '/islands/SignupForm.tsx': { imports: ['/islands/payments/index.ts'] },
        '/islands/DownloadApp.tsx': { imports: ['/islands/payments/index.ts'] },
        '/islands/pixels/index.ts': big,
        '/islands/payments/index.ts': big,
      }),
      roots,
    );
    const names = [
      twoIndexes.get('/islands/pixels/index.ts'),
      twoIndexes.get('/islands/payments/index.ts'),
    ];
    expect(names.sort()).toEqual(['index', 'index-2']);
  });

  it("leaves a module one island alone imports in that island's file, and React to its own", () => {
    expect(plan.has('/islands/payments/card-only.ts')).toBe(false);
    expect(plan.has('/islands/payments/provider.ts')).toBe(false);
    expect(plan.has('/node_modules/react/index.js')).toBe(false);
    for (const island of roots.islands) expect(plan.has(island)).toBe(false);
  });
});

describe('a page apart from the funnel (the console)', () => {
  // The console uses the plan's money module, which the checkout's small stores group shares.
  const withConsole = {
    ...MODULES,
    '/islands/stores/plans.ts': { imports: ['/shared/plans/renewal.ts'], size: 200 },
    '/shared/plans/renewal.ts': { size: 300 },
    '/console/main.tsx': { imports: ['/shared/plans/renewal.ts', '/node_modules/react/index.js'] },
  };
  const apartRoots = { ...roots, apart: ['/console/main.tsx'] };

  it('gets a module it shares with the islands cut from theirs, so it loads none of their code', () => {
    const plan = chunkPlan(graphOf(withConsole), apartRoots);
    const renewal = plan.get('/shared/plans/renewal.ts');
    expect(renewal).toBeDefined();
    expect(renewal).not.toBe(plan.get('/islands/payments/attempt.ts'));
    expect(renewal).not.toBe('shared');
    expect(renewal).not.toBe('boot');
  });

  it('without it the module joins the islands’ file, which the console would then load', () => {
    const plan = chunkPlan(graphOf(withConsole), roots);
    expect(plan.get('/shared/plans/renewal.ts')).toBe(plan.get('/islands/payments/attempt.ts'));
  });
});

describe('manualChunks', () => {
  it('names React, React DOM and the scheduler one file, and follows the plan for the rest', () => {
    const manualChunks = clientChunks(roots);
    const getModuleInfo = graphOf(MODULES);
    expect(manualChunks('/node_modules/react-dom/client.js', { getModuleInfo })).toBe('react');
    expect(manualChunks('/node_modules/scheduler/index.js', { getModuleInfo })).toBe('react');
    expect(manualChunks('/islands/stores/error.ts', { getModuleInfo })).toBe('shared');
    expect(manualChunks('/islands/payments/card-only.ts', { getModuleInfo })).toBeUndefined();
  });

  it('works the plan out again for a new build, as a watch rebuild is', () => {
    const manualChunks = clientChunks(roots);
    expect(manualChunks('/islands/stores/map.ts', { getModuleInfo: graphOf(MODULES) })).toBe(
      'shared',
    );
    // The next build: the banner no longer uses the map store, so only the phone form does.
    const rebuilt = graphOf({ ...MODULES, '/islands/LocatedBanner.tsx': {} });
    expect(manualChunks('/islands/stores/map.ts', { getModuleInfo: rebuilt })).toBeUndefined();
  });
});
