import type { Manifest } from 'vite';
import { describe, expect, it } from 'vitest';
import { workerManifest } from '../../scripts/worker-manifest';

/** A small client build, shaped like Vite's manifest of ours: entries, shared and lazy chunks. */
const MANIFEST: Manifest = {
  'islands/boot.ts': {
    file: 'assets/boot-a1.js',
    name: 'boot',
    src: 'islands/boot.ts',
    isEntry: true,
    imports: ['_shared-b2.js'],
    dynamicImports: ['islands/analytics/tracker.ts'],
  },
  'islands/PhoneForm.tsx': {
    file: 'assets/PhoneForm-c3.js',
    name: 'PhoneForm',
    src: 'islands/PhoneForm.tsx',
    isEntry: true,
    imports: ['islands/boot.ts', '_react-d4.js'],
  },
  'console/main.tsx': {
    file: 'assets/console-e5.js',
    name: 'console',
    src: 'console/main.tsx',
    isEntry: true,
    css: ['assets/console-e5.css'],
    assets: ['assets/font-f6.woff2'],
  },
  '_shared-b2.js': { file: 'assets/shared-b2.js', name: 'shared' },
  '_react-d4.js': { file: 'assets/react-d4.js', name: 'react', imports: ['_shared-b2.js'] },
  'islands/analytics/tracker.ts': {
    file: 'assets/tracker-g7.js',
    name: 'tracker',
    src: 'islands/analytics/tracker.ts',
    isDynamicEntry: true,
    imports: ['_lazy-h8.js'],
  },
  '_lazy-h8.js': { file: 'assets/lazy-h8.js', name: 'lazy' },
};

describe("the worker's manifest (scripts/worker-manifest.ts)", () => {
  it('keeps every entry and what it imports, with only file, imports and style sheets', () => {
    expect(workerManifest(MANIFEST)).toEqual({
      'islands/boot.ts': { file: 'assets/boot-a1.js', imports: ['_shared-b2.js'] },
      'islands/PhoneForm.tsx': {
        file: 'assets/PhoneForm-c3.js',
        imports: ['islands/boot.ts', '_react-d4.js'],
      },
      'console/main.tsx': { file: 'assets/console-e5.js', css: ['assets/console-e5.css'] },
      '_shared-b2.js': { file: 'assets/shared-b2.js' },
      '_react-d4.js': { file: 'assets/react-d4.js', imports: ['_shared-b2.js'] },
    });
  });

  it('leaves out the chunks only a dynamic import reaches, which the worker never names', () => {
    const kept = workerManifest(MANIFEST);
    expect(kept['islands/analytics/tracker.ts']).toBeUndefined();
    expect(kept['_lazy-h8.js']).toBeUndefined();
  });
});
