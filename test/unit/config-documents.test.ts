import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../scripts/import-boundaries';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every config document's schema and its types live here (docs/architecture.md). */
const CONFIG_FOLDER = 'shared/config';

/** The browser bundles, which ship no zod: they may take the documents' types, never values. */
const BROWSER_FOLDERS = ['console', 'islands'];

const sources = readSources(ROOT, ['worker', 'shared', 'console', 'islands', 'scripts', 'portal']);

/** The imports of `shared/config/` in `source` that are not `import type` (erased at build). */
function valueImportsOfConfig(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return [];
    const target = posix.join(posix.dirname(path), specifier.text);
    if (!target.startsWith(`${CONFIG_FOLDER}/`)) return [];
    const typeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true
      : statement.isTypeOnly;
    return typeOnly ? [] : [`${path} → ${specifier.text}`];
  });
}

describe('each config document declared once (shared/config/)', () => {
  it('joins no schema to a type by a cast: every type is inferred from its schema', () => {
    const casts = sources
      .filter(({ text }) => /as (unknown as )?z\.ZodType/.test(text))
      .map(({ path }) => path);
    expect(casts).toEqual([]);
  });

  it('keeps zod out of the browser bundles: the console and islands import only types', () => {
    const valueImports = sources
      .filter(({ path }) => BROWSER_FOLDERS.includes(path.split('/')[0] ?? ''))
      .flatMap(({ path, text }) => valueImportsOfConfig(path, text));
    expect(valueImports).toEqual([]);
  });

  it('tells an inline `type` import from `import type`, which verbatimModuleSyntax keeps', () => {
    const planted = [
      "import type { RoutingDocument } from '../shared/config/routing';",
      "import { type SplitDocument } from '../shared/config/split';",
      "import { SLOTS } from '../shared/experiments';",
    ].join('\n');
    expect(valueImportsOfConfig('console/planted.ts', planted)).toEqual([
      'console/planted.ts → ../shared/config/split',
    ]);
  });
});
