import { describe, expect, it } from 'vitest';
import { longFunctions, MAX_FUNCTION_LINES, MEASURED_FOLDERS } from '../../scripts/long-functions';

/** A function of `name` whose body is `lines` lines long, wrapped as written. */
function fn(head: string, lines: number, tail = '}'): string[] {
  return [head, ...Array.from({ length: lines }, (_, n) => `  step(${n});`), tail];
}

const source = (path: string, lines: readonly string[]) => ({ path, text: lines.join('\n') });

describe('no function over 80 lines outside tests (npm run check)', () => {
  it('measures what runs and the tools, not the tests', () => {
    expect(MEASURED_FOLDERS).toEqual(expect.arrayContaining(['worker', 'islands', 'console']));
    expect(MEASURED_FOLDERS).toContain('scripts');
    expect(MEASURED_FOLDERS).not.toContain('test');
  });

  it('finds a function one line over, and lets one at the limit pass', () => {
    const atLimit = fn('export function fits() {', MAX_FUNCTION_LINES - 2);
    const over = fn('export function tooLong() {', MAX_FUNCTION_LINES - 1);
    expect(longFunctions([source('worker/a.ts', atLimit)])).toEqual([]);
    expect(longFunctions([source('worker/b.ts', ['', ...over])])).toEqual([
      { path: 'worker/b.ts', name: 'tooLong', line: 2, lines: MAX_FUNCTION_LINES + 1 },
    ]);
  });

  it('counts the closures inside a function, and names arrows, methods and callbacks', () => {
    const factory = [
      'export function routes() {',
      ...fn('  const handler = () => {', 50, '  };'),
      ...fn('  app.get("/", () => {', 40, '  });'),
      '}',
      'class Store {',
      ...fn('  load() {', 90, '  }'),
      '}',
    ];
    const found = longFunctions([source('worker/c.ts', factory)]);
    expect(found.map(({ name, lines }) => [name, lines])).toEqual([
      ['routes', 96],
      ['load', 92],
    ]);
    const inner = longFunctions([source('worker/d.ts', fn('const big = () => {', 85, '};'))]);
    expect(inner.map((f) => f.name)).toEqual(['big']);
    const callback = longFunctions([source('worker/e.ts', fn('app.get("/", () => {', 85, '});'))]);
    expect(callback.map((f) => f.name)).toEqual(['(callback of get)']);
  });

  it('leaves declaration files out (types, no body)', () => {
    const declarations = fn('declare namespace Big {', 90);
    expect(longFunctions([source('worker/types.d.ts', declarations)])).toEqual([]);
  });
});
