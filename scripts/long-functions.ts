import ts from 'typescript';
import type { Source } from './import-boundaries';

/**
 * No function over MAX_FUNCTION_LINES lines outside tests and generated code (`npm run check`,
 * check-house.ts). A function that long does several things at once; split it where
 * its comments already name the parts, or move its logic into a store (islands/, console/) and
 * leave the component thin.
 *
 * A function's lines run from its first line to its last, the functions inside it included:
 * a route factory whose handlers are closures counts them all.
 */
export const MAX_FUNCTION_LINES = 80;

/** The folders whose functions the check measures: what runs, and the tools that run it. */
export const MEASURED_FOLDERS: readonly string[] = [
  'shared',
  'islands',
  'screens',
  'portal',
  'test-gateway',
  'console',
  'worker',
  'locales',
  'scripts',
];

export interface LongFunction {
  path: string;
  name: string;
  line: number;
  lines: number;
}

/** Every function in `sources` longer than `max` lines, the longest first. */
export function longFunctions(
  sources: Iterable<Source>,
  max: number = MAX_FUNCTION_LINES,
): LongFunction[] {
  const found: LongFunction[] = [];
  for (const { path, text } of sources) {
    if (path.endsWith('.d.ts')) continue;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > max) found.push({ path, name: nameOf(node), line: first + 1, lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found.sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
}

/** The name a reader would search for: the function's own, or the binding or key it is given to. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const called = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
    return `(callback of ${called})`;
  }
  return '(anonymous)';
}
