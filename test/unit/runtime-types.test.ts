import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Library and type files parsed once for all the projects below (the ES library is common). */
const PARSED = new Map<string, ts.SourceFile>();

/**
 * Type-checks planted files under a runtime's project (tsconfig.<runtime>.json): its compiler
 * options, libraries and global types, with the files held in memory so that nothing is written
 * into the tree other tools are reading. Returns each planted file's error messages.
 */
function typeErrors(project: string, planted: Record<string, string>): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!config) throw new Error(`${project} cannot be read`);
  const files = new Map(Object.entries(planted).map(([path, text]) => [join(ROOT, path), text]));
  for (const path of files.keys()) {
    // A planted file stands for one of the project's own: its folder must be in the project.
    const folder = join(path, '..');
    expect(
      config.fileNames.some((name) => name.startsWith(`${folder}/`)),
      `${project} covers ${folder}`,
    ).toBe(true);
  }
  const options = {
    ...config.options,
    composite: false,
    incremental: false,
    emitDeclarationOnly: false,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, language);
    let parsed = PARSED.get(name);
    if (!parsed) {
      parsed = getSourceFile(name, language, ...rest);
      if (parsed) PARSED.set(name, parsed);
    }
    return parsed;
  };
  // The project's own declarations (shared/web-platform.d.ts) come along, as in the real build.
  const declarations = config.fileNames.filter((name) => name.endsWith('.d.ts'));
  const program = ts.createProgram({
    rootNames: [...files.keys(), ...declarations],
    options,
    host,
  });
  return Object.fromEntries(
    [...files.keys()].map((path) => [
      path.slice(ROOT.length),
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(path))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')),
    ]),
  );
}

/** TypeScript's error for an unknown global, whatever hint it adds. */
function missing(name: string) {
  return expect.stringMatching(new RegExp(`^Cannot find name '${name}'`));
}

// Each check parses its runtime's library (the DOM's or the Workers') afresh: a few seconds.
describe('each runtime sees only its own globals (tsconfig.<runtime>.json)', {
  timeout: 30_000,
}, () => {
  it('edge: worker and screens have the Workers types and no DOM', () => {
    expect(
      typeErrors('tsconfig.edge.json', {
        'worker/planted.ts': 'export const cache: Cache = caches.default;',
        'worker/planted-dom.ts': 'export const title = document.title;',
        'screens/planted-dom.tsx': 'export const path = window.location.pathname;',
      }),
    ).toEqual({
      'worker/planted.ts': [],
      'worker/planted-dom.ts': [missing('document')],
      'screens/planted-dom.tsx': [missing('window')],
    });
  });

  it('browser: islands have the DOM, and neither the Workers nor the Node globals', () => {
    expect(
      typeErrors('tsconfig.browser.json', {
        'islands/planted.ts': 'export const title = document.title;',
        'islands/planted-workers.ts': 'export const cache = caches.default;',
        'islands/planted-node.ts': 'export const mode = process.env.NODE_ENV;',
      }),
    ).toEqual({
      'islands/planted.ts': [],
      'islands/planted-workers.ts': ["Property 'default' does not exist on type 'CacheStorage'."],
      'islands/planted-node.ts': [missing('process')],
    });
  });

  it('shared: only what every runtime has', () => {
    expect(
      typeErrors('tsconfig.shared.json', {
        'shared/planted.ts': "export const host = new URL('https://example.com/').hostname;",
        'shared/planted-dom.ts': 'export const width = window.innerWidth;',
        'shared/planted-workers.ts': 'export const cache = caches.default;',
        'shared/planted-node.ts': 'export const cwd = process.cwd();',
      }),
    ).toEqual({
      'shared/planted.ts': [],
      'shared/planted-dom.ts': [missing('window')],
      'shared/planted-workers.ts': [missing('caches')],
      'shared/planted-node.ts': [missing('process')],
    });
  });
});
