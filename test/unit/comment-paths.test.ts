import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CITING_FOLDERS,
  comments,
  missingModules,
  missingPaths,
  namedPaths,
  readTextFiles,
} from './source-references';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `file:line: cited`, for a failure that says where to look. */
function listed(cited: readonly { at: string; cited: string }[]): string[] {
  return cited.map(({ at, cited }) => `${at}: ${cited}`).sort();
}

describe("the files comments name are the repository's", () => {
  const files = readTextFiles(ROOT, CITING_FOLDERS);

  it('names, by a path, only files that exist (from the root, the top folder or its own)', () => {
    const missing = missingPaths(ROOT, files);
    expect(listed(missing)).toEqual([]);
  });

  it('names, by the file alone, only modules some file of the repository is called', () => {
    const missing = missingModules(ROOT, files);
    expect(listed(missing)).toEqual([]);
  });
});

describe('the path check itself', () => {
  const source = (path: string, lines: readonly string[]) => ({ path, text: lines.join('\n') });

  it('reads comments, not strings, a route pattern or an address', () => {
    const file = source('worker/x.ts', [
      "app.get('/api/*', handler); // the API (api/routes.ts)",
      "const planted = 'worker/planted.ts'; const site = 'https://example.com/a/b.ts';",
      '/* one',
      ' * two */ const after = "x";',
    ]);
    expect(comments(file).map((comment) => comment.text)).toEqual([
      '// the API (api/routes.ts)',
      '/* one\n * two */',
    ]);
  });

  it('takes paths from the root, the file and its top folder; patterns and other projects not', () => {
    const file = source('scripts/bench/data/y.ts', [
      '/**',
      ' * worker/app.tsx, ./run.ts, ../routing.ts, bench/main.ts and docs/gone.md;',
      ' * not screens/<area>/x.tsx, worker/…/x.ts, src/hono-base.ts or https://a.dev/worker/z.ts.',
      ' */',
    ]);
    expect(namedPaths(ROOT, file).map(({ at, candidates }) => [at, candidates])).toEqual([
      ['scripts/bench/data/y.ts:2', ['worker/app.tsx']],
      ['scripts/bench/data/y.ts:2', ['scripts/bench/data/run.ts']],
      ['scripts/bench/data/y.ts:2', ['scripts/bench/routing.ts']],
      ['scripts/bench/data/y.ts:2', ['scripts/bench/main.ts']],
      ['scripts/bench/data/y.ts:2', ['docs/gone.md']],
    ]);
    expect(missingPaths(ROOT, [file])).toEqual([
      { at: 'scripts/bench/data/y.ts:2', cited: 'docs/gone.md' },
    ]);
  });

  it('finds a module named alone that no file is called', () => {
    const file = source('worker/x.ts', ['// as app.tsx and vite.config.ts do, not gone-away.ts']);
    expect(missingModules(ROOT, [file, source('worker/app.tsx', [])])).toEqual([
      { at: 'worker/x.ts:1', cited: 'gone-away.ts' },
    ]);
  });
});
