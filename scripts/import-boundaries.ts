import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/**
 * Who may import whom, by top-level folder (ARCHITECTURE.md, Where code runs): a folder says
 * where its code runs, and code may only lean on code that runs there too. `npm run check` runs
 * this over every relative import (check-house.ts). Biome's `noRestrictedImports`
 * sees only the specifier as written, and `../screens` is shared/screens.ts from
 * shared/analytics/ but the screens/ folder from shared/, so the specifier is resolved against
 * the importing file here first.
 *
 * Bare specifiers (npm packages, `node:` and `cloudflare:` modules) are left to each runtime's
 * type project (tsconfig.*.json), which does not know another runtime's modules. That
 * production code never imports the development kit stays Biome's rule (biome.json): it splits
 * worker/ by file, the production entry's from the development entry's.
 */

export interface Boundary {
  /** Top-level folder whose files the rule covers. */
  folder: string;
  /** The top-level folders its files may import, besides their own. */
  mayImport: readonly string[];
  /** What a violation is told: where the folder's code runs, and where the import belongs. */
  message: string;
}

export const BOUNDARIES: readonly Boundary[] = [
  {
    folder: 'shared',
    mayImport: [],
    message:
      'shared/ runs in every runtime and imports only shared/ and npm packages: move what both sides need into shared/, or pass it in.',
  },
  {
    folder: 'islands',
    mayImport: ['shared'],
    message:
      'islands/ runs in the browser and imports only islands/ and shared/: what an island needs from the server comes in its props.',
  },
  {
    folder: 'screens',
    mayImport: ['islands', 'shared', 'locales'],
    message:
      'screens/ are the server components the worker renders and import only screens/, islands/, shared/ and locales/: never worker/ (which imports them), the portal or the tools. What a screen needs from the request comes in ScreenProps.',
  },
  {
    folder: 'portal',
    mayImport: ['shared'],
    message:
      'portal/ emulates the product API, a separate service (SPEC.md §7), and imports only portal/ and shared/: what it shares with the worker belongs in shared/.',
  },
  {
    folder: 'test-gateway',
    mayImport: ['shared'],
    message:
      "test-gateway/ holds the test gateway's browser frames and imports only test-gateway/ and shared/ (shared/test-gateway-protocol.ts is the protocol they speak).",
  },
  {
    folder: 'console',
    mayImport: ['shared'],
    message:
      "console/ is the marketers' console in the browser and imports only console/ and shared/: it talks to the worker through shared/console-api/, and the worker serves its page without importing it.",
  },
  {
    folder: 'worker',
    // node_modules: a package's own file no `exports` names, by path (worker/render/react-dom-server.ts).
    mayImport: [
      'screens',
      'islands',
      'shared',
      'locales',
      'portal',
      'test-gateway',
      'node_modules',
    ],
    message:
      'worker/ runs on the edge and never imports the tools or the tests (scripts/, test/): they depend on it, not it on them.',
  },
];

export interface Source {
  /** Path from the repository root, with `/`. */
  path: string;
  text: string;
}

export interface Violation {
  path: string;
  specifier: string;
  message: string;
}

/** The imports of `sources` that leave their folder for one its boundary does not allow. */
export function importViolations(sources: Iterable<Source>): Violation[] {
  const violations: Violation[] = [];
  for (const { path, text } of sources) {
    const folder = path.split('/')[0] ?? '';
    const boundary = BOUNDARIES.find((b) => b.folder === folder);
    if (!boundary) continue;
    // Every module reference the compiler sees: import, import type, export ... from, import().
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.join(posix.dirname(path), specifier).split('/')[0] ?? '';
      if (target === folder || boundary.mayImport.includes(target)) continue;
      violations.push({ path, specifier, message: boundary.message });
    }
  }
  return violations;
}

const SOURCE_FILE = /\.(ts|tsx)$/;

/**
 * The source files below `folder`, as repository paths. Installed packages are not ours: a
 * `node_modules` folder (scripts/bench/ installs its own) and hidden folders are not entered.
 */
function sourcePaths(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(folder, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name.startsWith('.')
        ? []
        : sourcePaths(root, path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** The source files under `folders` (by default those `BOUNDARIES` covers), read from `root`. */
export function readSources(
  root: string,
  folders: readonly string[] = BOUNDARIES.map((b) => b.folder),
): Source[] {
  return folders.flatMap((folder) =>
    sourcePaths(root, folder).map((path) => ({
      path,
      text: readFileSync(join(root, path), 'utf8'),
    })),
  );
}
