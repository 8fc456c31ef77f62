import { posix } from 'node:path';
import ts from 'typescript';
import { BOUNDARIES, type Source } from './import-boundaries';

/**
 * No import cycle anywhere in the repository (`npm run check`, check-house.ts). A
 * cycle makes one module of the pair run before the other has set its exports, so what a module
 * sees at load time depends on who imported first; one direction of dependency keeps every
 * folder readable from the bottom up.
 *
 * Only imports that exist at run time count: `import type`, `export type`, and imports whose
 * every specifier is `type` are erased by the compiler. Dynamic `import()` is loaded on demand,
 * after both modules have run, so it does not count either.
 */

/** Every folder whose TypeScript files the check reads, the boundary folders and the tools. */
export const CYCLE_FOLDERS: readonly string[] = [
  ...BOUNDARIES.map((b) => b.folder),
  'locales',
  'scripts',
  'test',
];

/** The relative specifiers `text` imports or re-exports statically for their values. */
export function valueImports(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!isTypeOnlyImport(statement.importClause)) specifiers.push(textOf(statement));
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) specifiers.push(textOf(statement));
    }
  }
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

function isTypeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  // `import './x'` runs the module: a value import.
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function textOf(statement: ts.ImportDeclaration | ts.ExportDeclaration): string {
  const specifier = statement.moduleSpecifier;
  return specifier && ts.isStringLiteral(specifier) ? specifier.text : '';
}

const RESOLVED = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The source among `paths` a relative specifier names, as the bundler resolves it. */
export function resolve(
  paths: ReadonlySet<string>,
  from: string,
  specifier: string,
): string | undefined {
  const base = posix.join(posix.dirname(from), specifier).replace(/\.js$/, '');
  return RESOLVED.map((suffix) => base + suffix).find((path) => paths.has(path));
}

export interface ImportCycle {
  /** A shortest ring of value imports, in import order, the first file repeated at the end. */
  ring: string[];
  /** The other files caught in the same knot (each reaches and is reached from the ring). */
  alsoCaught: string[];
}

/** The import cycles among `sources`: one for every group of files that import each other. */
export function importCycles(sources: Iterable<Source>): ImportCycle[] {
  const list = [...sources];
  const paths = new Set(list.map((source) => source.path));
  const graph = new Map<string, string[]>();
  for (const { path, text } of list) {
    const targets = valueImports(path, text)
      .map((specifier) => resolve(paths, path, specifier))
      .filter((target): target is string => target !== undefined);
    graph.set(path, [...new Set(targets)].sort());
  }
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || graph.get(group[0] ?? '')?.includes(group[0] ?? ''))
    .map((group) => {
      const ring = shortestCycle(graph, new Set(group));
      return { ring, alsoCaught: group.filter((path) => !ring.includes(path)) };
    })
    .sort((a, b) => (a.ring[0] ?? '').localeCompare(b.ring[0] ?? ''));
}

/** Tarjan's strongly connected components, iterative so deep import chains cannot overflow. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) {
        low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group.sort());
      }
    }
  }
  return groups;
}

/** The shortest ring through the group's first file, found breadth-first inside the group. */
function shortestCycle(
  graph: ReadonlyMap<string, readonly string[]>,
  group: Set<string>,
): string[] {
  const start = [...group].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at] as string;
    for (const target of graph.get(node) ?? []) {
      if (!group.has(target)) continue;
      if (target === start) {
        const ring = [start];
        for (let step = node; step !== start; step = cameFrom.get(step) ?? start) ring.push(step);
        return [...ring, start].reverse();
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
