import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Rollup } from 'vite';

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

const BOOT = resolve('islands/boot.ts');

/** Every module boot.ts imports statically, itself included: what every funnel page runs. */
function bootGraph(getModuleInfo: Rollup.GetModuleInfo): ReadonlySet<string> {
  const graph = new Set<string>();
  const visit = (id: string) => {
    if (graph.has(id)) return;
    graph.add(id);
    for (const imported of getModuleInfo(id)?.importedIds ?? []) visit(imported);
  };
  visit(BOOT);
  return graph;
}

/** Boot's graph, worked out once per build (each build has its own getModuleInfo). */
let bootModules: { of: Rollup.GetModuleInfo; graph: ReadonlySet<string> } | undefined;

/**
 * Fewer, larger files for what every page loads together. A page asks for each file with a
 * modulepreload after its first paint, and each request costs the main thread a few ms on a
 * slow phone: split as Rollup splits by default, boot's graph was 8 files (some of 66-307 B)
 * and React 3. React, React DOM and the scheduler go together (every page with an island loads
 * them), and so do boot and everything it imports (every page runs it).
 */
function manualChunks(id: string, { getModuleInfo }: Rollup.ManualChunkMeta): string | undefined {
  if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'react';
  if (bootModules?.of !== getModuleInfo) {
    bootModules = { of: getModuleInfo, graph: bootGraph(getModuleInfo) };
  }
  if (bootModules.graph.has(id)) return 'boot';
  return undefined;
}

export default defineConfig({
  publicDir: 'public',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    modulePreload: false,
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
