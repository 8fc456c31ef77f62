import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { countWalk, roomOf } from '../../scripts/request-walk/count';
import { instrumentSource, traceLine } from '../../scripts/request-walk/instrument';
import { isTracedPath } from '../../scripts/request-walk/traced-tree';

/** A worker file with a function of every kind, each reachable from `calls` by its kind's name. */
const EVERY_KIND = [
  'declare const console: { log(line: string): void };',
  'interface Plan { name: string; price: number }',
  'type Named<T extends string> = { [K in T]: Plan };',
  'function declared(plan: Plan): string { return plan.name; }',
  'const expressed = function (n: number) { return n * 2; };',
  'const arrowBlock = <T,>(value: T): T => { return value; };',
  'const arrowExpression = (plan: Plan) => ({ ...plan, price: plan.price as number });',
  'function overloaded(n: number): number;',
  'function overloaded(s: string): string;',
  'function overloaded(x: unknown) { return x; }',
  'declare function declaredElsewhere(): void;',
  'abstract class Base { abstract size(): number; constructor(readonly id: string) {} }',
  'class Basket extends Base {',
  '  items: Plan[] = [];',
  "  constructor() { super('basket'); }",
  '  size() { return this.items.length; }',
  '  get empty(): boolean { return this.items.length === 0; }',
  '  set first(plan: Plan) { this.items.unshift(plan); }',
  '  static make() { return new Basket(); }',
  '}',
  'const literal = { method() { return 1; } };',
  'async function* generated() { yield 1; }',
  'const basket = Basket.make();',
  'export const calls: Record<string, () => unknown> = {',
  "  declaration: () => declared({ name: 'a', price: 1 }),",
  '  expression: () => expressed(2),',
  '  arrowBlock: () => arrowBlock(1),',
  "  arrowExpression: () => arrowExpression({ name: 'a', price: 1 }),",
  '  overloadImplementation: () => overloaded(1),',
  '  constructor: () => new Basket(),',
  '  method: () => basket.size(),',
  '  getter: () => basket.empty,',
  "  setter: () => { basket.first = { name: 'b', price: 2 }; },",
  '  staticMethod: () => Basket.make(),',
  '  objectMethod: () => literal.method(),',
  '  generator: () => generated().next(),',
  '};',
  'export type Check = Named<"a"> | typeof declaredElsewhere;',
].join('\n');

const PATH = 'worker/purchases/every-kind.ts';

const COMPONENT = [
  'declare const console: { log(line: string): void };',
  'export function Price({ amount }: { amount: number }) {',
  '  return <p title="price">{amount.toFixed(2)}</p>;',
  '}',
  'export const Row = ({ label }: { label: string }) => <li>{label}</li>;',
].join('\n');

const COMPONENT_PATH = 'worker/render/price.tsx';

/** The planted sources, as written and traced, type-checked together (one program: lib once). */
const typeErrors = (() => {
  let known: Record<string, string[]> | undefined;
  return (): Record<string, string[]> => {
    if (known) return known;
    const files: Record<string, string> = {
      // What React's types give a .tsx file: any element, with children and attributes.
      '/planted/jsx.d.ts':
        'declare namespace JSX { interface Element {} interface IntrinsicElements { [name: string]: { children?: unknown; title?: string } } }',
      '/planted/source.ts': EVERY_KIND,
      '/planted/traced.ts': instrumentSource(PATH, EVERY_KIND),
      '/planted/source.tsx': COMPONENT,
      '/planted/traced.tsx': instrumentSource(COMPONENT_PATH, COMPONENT),
    };
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      jsx: ts.JsxEmit.Preserve,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (name) => name in files || ts.sys.fileExists(name);
    host.getSourceFile = (name, target) => {
      const text = files[name];
      return text === undefined
        ? getSourceFile(name, target)
        : ts.createSourceFile(name, text, target);
    };
    const program = ts.createProgram(Object.keys(files), options, host);
    known = Object.fromEntries(
      Object.keys(files).map((name) => [
        name,
        ts
          .getPreEmitDiagnostics(program, program.getSourceFile(name))
          .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
      ]),
    );
    return known;
  };
})();

/** Runs the traced file as CommonJS and answers each call's trace lines. */
function tracesOfEachCall(traced: string): Record<string, string[]> {
  const { outputText } = ts.transpileModule(traced, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const printed: string[] = [];
  const exports: { calls?: Record<string, () => unknown> } = {};
  new Function('exports', 'console', outputText)(exports, {
    log: (line: string) => printed.push(line),
  });
  const traces: Record<string, string[]> = {};
  for (const [kind, call] of Object.entries(exports.calls ?? {})) {
    printed.length = 0;
    call();
    // The first line is the entry of the `calls` arrow itself.
    traces[kind] = printed.slice(1);
  }
  return traces;
}

describe('the walk traces every worker function (npm run walk)', () => {
  it('prints its file once on entering a function of any kind', () => {
    const traces = tracesOfEachCall(instrumentSource(PATH, EVERY_KIND));
    const line = traceLine(PATH);
    expect(line).toBe('{"walk":"worker/purchases/every-kind.ts"}');
    expect(traces).toEqual({
      declaration: [line],
      expression: [line],
      arrowBlock: [line],
      arrowExpression: [line],
      overloadImplementation: [line],
      // Basket's constructor, then Base's, which it calls through super().
      constructor: [line, line],
      method: [line],
      getter: [line],
      setter: [line],
      // make(), then the constructors of the Basket it builds.
      staticMethod: [line, line, line],
      objectMethod: [line],
      generator: [line],
    });
  });

  it('keeps the types, and the traced file type-checks as the source does', () => {
    const traced = instrumentSource(PATH, EVERY_KIND);
    const typeLines = EVERY_KIND.split('\n').filter((text) =>
      /^(interface|type|declare|function overloaded\(n)/.test(text),
    );
    for (const line of typeLines) expect(traced).toContain(line);
    expect(typeErrors()['/planted/source.ts']).toEqual([]);
    expect(typeErrors()['/planted/traced.ts']).toEqual([]);
  });

  it('keeps JSX, and a traced component still compiles', () => {
    const traced = instrumentSource(COMPONENT_PATH, COMPONENT);
    expect(traced).toContain('<p title="price">{amount.toFixed(2)}</p>');
    expect(traced).toContain(
      `(console.log(${JSON.stringify(traceLine(COMPONENT_PATH))}), <li>{label}</li>)`,
    );
    expect(typeErrors()['/planted/source.tsx']).toEqual([]);
    expect(typeErrors()['/planted/traced.tsx']).toEqual([]);
  });

  it('traces worker code on production’s path only', () => {
    expect(isTracedPath('worker/purchases/offer.ts')).toBe(true);
    expect(isTracedPath('worker/render/render-page.tsx')).toBe(true);
    expect(isTracedPath('worker/app.tsx')).toBe(true);
    expect(isTracedPath('worker/dev/embedded-portal.ts')).toBe(false);
    expect(isTracedPath('worker/dev.ts')).toBe(false);
    expect(isTracedPath('worker/sql-modules.d.ts')).toBe(false);
    expect(isTracedPath('worker/events-db/migrations/0001_events.sql')).toBe(false);
    expect(isTracedPath('shared/api/contract.ts')).toBe(false);
  });
});

describe('the walk counts files, rooms and returns', () => {
  const trace = [
    'worker/middleware/visitor.ts',
    'worker/env.ts',
    'worker/middleware/visitor.ts',
    'worker/middleware/country.ts',
    'worker/purchases/offer.ts',
    'worker/session/session-cookie.ts',
    'worker/purchases/offer.ts',
    'worker/purchases/charge.ts',
    'worker/env.ts',
    'worker/session/session-cookie.ts',
  ];

  it('names a folder right under worker/ as the room, and the root files as "worker"', () => {
    expect(roomOf('worker/purchases/offer.ts')).toBe('purchases');
    expect(roomOf('worker/experiments/store/experiment-shard.ts')).toBe('experiments');
    expect(roomOf('worker/env.ts')).toBe('worker');
  });

  it('lists each file once in the order of its first entry', () => {
    expect(countWalk(trace).files).toEqual([
      'worker/middleware/visitor.ts',
      'worker/env.ts',
      'worker/middleware/country.ts',
      'worker/purchases/offer.ts',
      'worker/session/session-cookie.ts',
      'worker/purchases/charge.ts',
    ]);
  });

  it('collapses consecutive entries of one room and counts each return to a room left', () => {
    const walk = countWalk(trace);
    expect(walk.rooms).toEqual([
      'middleware',
      'worker',
      'middleware',
      'purchases',
      'session',
      'purchases',
      'worker',
      'session',
    ]);
    expect(walk.returns).toBe(4);
    expect(walk.returnedTo).toEqual(['middleware', 'purchases', 'worker', 'session']);
  });

  it('counts the rooms of the files by their first entry apart', () => {
    expect(countWalk(trace).byFirstEntry).toEqual({
      rooms: ['middleware', 'worker', 'middleware', 'purchases', 'session', 'purchases'],
      returns: 2,
      returnedTo: ['middleware', 'purchases'],
    });
  });

  it('counts no return for a walk that stays in its rooms in turn', () => {
    const walk = countWalk(['worker/a/x.ts', 'worker/a/y.ts', 'worker/b/z.ts']);
    expect(walk).toMatchObject({ rooms: ['a', 'b'], returns: 0, returnedTo: [] });
  });
});
