import ts from 'typescript';

/**
 * The walk's tracer (scripts/request-walk.ts): every function of a worker source file, whatever
 * its kind, first prints one JSON line naming the file, `{"walk":"worker/checkout/offer.ts"}`,
 * which the harness collects with the worker's own log lines (scripts/built-worker.ts `logs`).
 *
 * The calls are inserted into the text at positions the TypeScript parser finds, rather than by
 * reprinting a transformed tree: everything else (types, JSX, comments, line numbers) stays
 * byte for byte as written, so what is measured is the code as it is, and a stack trace from the
 * traced bundle points at the same lines as the source.
 */

/** The JSON line a traced function prints on entry. */
export function traceLine(path: string): string {
  return JSON.stringify({ walk: path });
}

/** The call that prints it, inserted at the top of a function body. */
function traceCall(path: string): string {
  return `console.log(${JSON.stringify(traceLine(path))})`;
}

interface Insertion {
  at: number;
  text: string;
}

type TracedFunction = ts.FunctionLikeDeclaration & { body: ts.ConciseBody };

function isTracedFunction(node: ts.Node): node is TracedFunction {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isConstructorDeclaration(node)) &&
    node.body !== undefined
  );
}

function insertionsFor({ body }: TracedFunction, call: string): Insertion[] {
  // Before anything else, even a constructor's super(): a call that does not touch `this` may.
  if (ts.isBlock(body)) return [{ at: body.getStart() + 1, text: `${call};` }];
  // An arrow's expression body becomes `(trace, expression)`: still one expression, same value.
  return [
    { at: body.getStart(), text: `(${call}, ` },
    { at: body.end, text: ')' },
  ];
}

/**
 * `text` with a trace naming `path` at the entry of each function that has a body: declarations,
 * expressions, arrows, methods, accessors and constructors. Overloads, abstract and declared
 * functions have no body and are left alone.
 */
export function instrumentSource(path: string, text: string): string {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const call = traceCall(path);
  const insertions: Insertion[] = [];
  const visit = (node: ts.Node): void => {
    if (isTracedFunction(node)) insertions.push(...insertionsFor(node, call));
    ts.forEachChild(node, visit);
  };
  visit(source);
  // From the end, so earlier positions stay valid; a stable sort keeps an outer function's
  // insertion before an inner one's at the same place.
  const ordered = insertions
    .map((insertion, order) => ({ ...insertion, order }))
    .sort((a, b) => b.at - a.at || b.order - a.order);
  let traced = text;
  for (const { at, text: inserted } of ordered) {
    traced = traced.slice(0, at) + inserted + traced.slice(at);
  }
  return traced;
}
