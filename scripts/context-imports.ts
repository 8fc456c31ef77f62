import ts from 'typescript';
import type { Source } from './import-boundaries';

/**
 * Only the worker's middleware, the request's readers and its route handlers see Hono's
 * `Context` (`npm run check`, check-house.ts). A middleware learns something about a request and
 * sets it beside the others (its `Variables`); `worker/request/` reads the request's cookies and
 * headers and makes the visit a handler hands down; a route handler, the `(c) => …` of a
 * `new Hono()` app, reads what it needs from `c` and hands the code below it a visit or plain
 * values. A module that names the `Context` type takes `c` itself, and so could reach anything
 * of any request: that is what this refuses outside `worker/middleware/` and `worker/request/`.
 * A handler written inline needs no annotation, so a route file passes without naming it.
 */

interface ContextImport {
  path: string;
  message: string;
}

const HONO = /^hono(\/|$)/;

/** The rooms that may take `c`: the middleware, and the readers of the request. */
const CONTEXT_ROOMS = ['worker/middleware/', 'worker/request/'];

/** Whether `text` names Hono's `Context` type: a named import, or `import('hono').Context`. */
function namesContext(path: string, text: string): boolean {
  // Parsing every worker file takes seconds; most never spell the word.
  if (!/\bContext\b/.test(text)) return false;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      found =
        HONO.test(node.moduleSpecifier.text) &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.some((e) => (e.propertyName ?? e.name).text === 'Context');
      return;
    }
    if (ts.isImportTypeNode(node) && node.qualifier !== undefined) {
      const argument = node.argument;
      const specifier =
        ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)
          ? argument.literal.text
          : '';
      const name = ts.isIdentifier(node.qualifier)
        ? node.qualifier.text
        : node.qualifier.right.text;
      if (HONO.test(specifier) && name === 'Context') found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

export function contextImports(sources: Iterable<Source>): ContextImport[] {
  const refused: ContextImport[] = [];
  for (const { path, text } of sources) {
    if (!path.startsWith('worker/') || CONTEXT_ROOMS.some((room) => path.startsWith(room))) {
      continue;
    }
    if (namesContext(path, text)) {
      refused.push({
        path,
        message:
          "imports Hono's Context outside worker/middleware/ and worker/request/. Let the route handler read what this needs from c and pass a visit or plain values; a middleware that learns something of the request belongs in worker/middleware/, a reader of its cookies or headers in worker/request/.",
      });
    }
  }
  return refused;
}
