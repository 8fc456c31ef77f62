import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest, ManifestChunk, Plugin } from 'vite';

/**
 * Where the worker's copy of the manifest goes, beside Vite's own (.vite/manifest.json, which
 * the tests and the bench read whole). `.vite/` is in the client build but not uploaded as a
 * static asset (public/.assetsignore). package.json "imports" `#client-manifest` names it.
 */
export const WORKER_MANIFEST = '.vite/worker-manifest.json';

/** What the worker reads of one chunk (worker/render/client-manifest.d.ts). */
type WorkerChunk = Pick<ManifestChunk, 'file' | 'imports' | 'css'>;

/**
 * The part of Vite's manifest the worker can ask for: every entry and the chunks it imports
 * statically, each with its file, imports and style sheets alone. The worker only ever starts
 * from an entry (an island, boot, hydrate, the console) and walks `imports`, so a chunk reached
 * only by a dynamic import is the browser's business. The rest of Vite's manifest (names,
 * sources, flags, dynamic imports, assets, dynamic-only chunks) was about 10 KB of the worker's
 * code, 1.8 KB gzip, that no request read.
 */
export function workerManifest(manifest: Manifest): Record<string, WorkerChunk> {
  const kept: Record<string, WorkerChunk> = {};
  const keep = (key: string) => {
    if (key in kept) return;
    const chunk = manifest[key];
    // A dangling import is Vite's bug, not ours; leaving it out makes the worker say so loudly.
    if (!chunk) return;
    const { file, imports, css } = chunk;
    kept[key] = { file, ...(imports && { imports }), ...(css && { css }) };
    for (const dependency of imports ?? []) keep(dependency);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) keep(key);
  return kept;
}

/** Writes {@link WORKER_MANIFEST} from the manifest Vite has just written. */
export function workerManifestFile(): Plugin {
  return {
    name: 'geofunnel-worker-manifest',
    apply: 'build',
    writeBundle(options, bundle) {
      const written = bundle['.vite/manifest.json'];
      if (written?.type !== 'asset' || !options.dir) {
        throw new Error('the client build wrote no .vite/manifest.json (vite.config.ts manifest)');
      }
      const { source } = written;
      const text = typeof source === 'string' ? source : new TextDecoder().decode(source);
      const manifest = JSON.parse(text) as Manifest;
      writeFileSync(join(options.dir, WORKER_MANIFEST), JSON.stringify(workerManifest(manifest)));
    },
  };
}
