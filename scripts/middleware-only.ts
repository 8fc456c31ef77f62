import { posix } from 'node:path';
import ts from 'typescript';
import type { Source } from './import-boundaries';

/**
 * `worker/middleware/` holds middleware only (`npm run check`, check-house.ts): what a sub-app
 * runs with `app.use`, nothing a handler or the code below it calls. A reader of the request's
 * cookies and headers, a cookie's name or a check of one belongs in `worker/request/`, which
 * the handlers hand down from; what a middleware sets is typed in `worker/request/envs.ts`.
 *
 * A file there is middleware when
 * - it exports at least one middleware, and
 * - each of its exports is a middleware or a type: a function declared to return
 *   `MiddlewareHandler` (a factory, `export function country(): MiddlewareHandler<…>`), a `const`
 *   declared as one (`export const screenFormGuard: MiddlewareHandler<AppEnv> = every(…)`), an
 *   interface or a type alias. A re-export or a default export is neither.
 *
 * And only the sub-apps that run it (`worker/sub-apps/`) and the app's global chain
 * (`worker/app.tsx`) import it, type-only imports too: a handler hands the code below it the
 * facts it read, so nothing below a handler names a middleware.
 */

interface NotMiddleware {
  path: string;
  message: string;
}

const FOLDER = 'worker/middleware/';

/** Whether `type` is written `MiddlewareHandler` or `MiddlewareHandler<…>`. */
function isMiddlewareType(type: ts.TypeNode | undefined): boolean {
  return (
    type !== undefined &&
    ts.isTypeReferenceNode(type) &&
    ts.isIdentifier(type.typeName) &&
    type.typeName.text === 'MiddlewareHandler'
  );
}

function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The names of the file's exports that are neither middleware nor types, and its middleware. */
function exportsOf(path: string, text: string): { others: string[]; middleware: number } {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const others: string[] = [];
  let middleware = 0;
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) {
      others.push(statement.getText(file).split('\n')[0] ?? 'a re-export');
      continue;
    }
    if (!isExported(statement)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && isMiddlewareType(statement.type)) {
      middleware++;
      continue;
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (isMiddlewareType(declaration.type)) middleware++;
        else others.push(declaration.name.getText(file));
      }
      continue;
    }
    const name = (statement as { name?: ts.Node }).name;
    others.push(name ? name.getText(file) : 'an export');
  }
  return { others, middleware };
}

export function notMiddleware(sources: Iterable<Source>): NotMiddleware[] {
  const refused: NotMiddleware[] = [];
  for (const { path, text } of sources) {
    if (!path.startsWith(FOLDER) || !/\.tsx?$/.test(path)) continue;
    const { others, middleware } = exportsOf(path, text);
    if (others.length > 0) {
      refused.push({
        path,
        message: `exports ${others.join(', ')}, which is not middleware. worker/middleware/ holds only what a sub-app runs with app.use (a function returning MiddlewareHandler, or a MiddlewareHandler const) and types; move a reader of the request's cookies or headers to worker/request/.`,
      });
    } else if (middleware === 0) {
      refused.push({
        path,
        message:
          'exports no middleware. worker/middleware/ holds only what a sub-app runs with app.use (a function returning MiddlewareHandler, or a MiddlewareHandler const); move it to the room it serves, or to worker/request/.',
      });
    }
  }
  return refused;
}

/** Who may import worker/middleware/: the sub-apps, the app, and middleware itself. */
function mayImportMiddleware(path: string): boolean {
  return (
    path.startsWith(FOLDER) || path.startsWith('worker/sub-apps/') || path === 'worker/app.tsx'
  );
}

export function middlewareImporters(sources: Iterable<Source>): NotMiddleware[] {
  const refused: NotMiddleware[] = [];
  for (const { path, text } of sources) {
    if (!path.startsWith('worker/') || mayImportMiddleware(path)) continue;
    const named = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((file) => file.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .filter((specifier) => posix.join(posix.dirname(path), specifier).startsWith(FOLDER));
    if (named.length > 0) {
      refused.push({
        path,
        message: `imports ${named.join(', ')}. Only worker/sub-apps/ and worker/app.tsx run middleware; read what the request carries from worker/request/ (its facts in envs.ts, its cookies' readers), or take it from the handler as a plain value.`,
      });
    }
  }
  return refused;
}
