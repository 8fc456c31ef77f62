import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { clientChunks } from './scripts/client-chunks';
import { consoleOpenApiAsset } from './scripts/console-openapi';
import { shippedTextAssets } from './scripts/shipped-text-assets';
import { workerManifestFile } from './scripts/worker-manifest';

/** Every `islands/<Name>.tsx` becomes its own entry chunk, plus the boot and hydrate modules. */
const islandEntries = Object.fromEntries(
  readdirSync('islands')
    .filter((file) => /^[A-Z]\w*\.tsx$/.test(file))
    .map((file) => [file.replace(/\.tsx$/, ''), `islands/${file}`]),
);

/**
 * The test gateway's own pages (worker/dev/test-gateway-pages.ts): development and tests only,
 * never loaded by a funnel page.
 */
const testGatewayEntries = {
  'test-gateway-card-frame': 'test-gateway/card-frame.ts',
  'test-gateway-challenge': 'test-gateway/challenge.ts',
};

/**
 * The marketers' console (console/, served at /console by worker/console/page.ts): an entry of
 * its own, with its own style sheet, that no funnel page loads.
 */
const consoleEntries = { console: 'console/main.tsx' };

/** Which file each module goes in: scripts/client-chunks.ts. */
const manualChunks = clientChunks({
  boot: resolve('islands/boot.ts'),
  islands: Object.values(islandEntries).map((path) => resolve(path)),
  apart: Object.values(consoleEntries).map((path) => resolve(path)),
});

export default defineConfig({
  publicDir: 'public',
  plugins: [shippedTextAssets(), workerManifestFile(), consoleOpenApiAsset()],
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    modulePreload: false,
    // The phone form fetches its numbering zones' JSON (islands/phone/zone-metadata.ts): as a
    // data: URL a small one would break the CSP's connect-src 'self'.
    assetsInlineLimit: (file) => (file.endsWith('.json') ? false : undefined),
    target: 'es2022',
    rollupOptions: {
      input: {
        boot: 'islands/boot.ts',
        hydrate: 'islands/hydrate.ts',
        ...islandEntries,
        ...testGatewayEntries,
        ...consoleEntries,
      },
      preserveEntrySignatures: 'allow-extension',
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        manualChunks,
      },
    },
  },
});
