import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * What the code and the docs cite, read as text: `SPEC.md §n` citations and the repository files
 * their comments name. The checks in spec-citations.test.ts and comment-paths.test.ts use it.
 */

/** The folders whose text cites the spec or names files, the docs among them. */
export const CITING_FOLDERS: readonly string[] = [
  'worker',
  'shared',
  'islands',
  'screens',
  'console',
  'portal',
  'scripts',
  'locales',
  'test',
  'docs',
];

/** A file of the repository, by its path from the root, with its text. */
export interface TextFile {
  path: string;
  text: string;
}

/** A place in a file: `path:line`, as a reader opens it. */
export interface Cited {
  at: string;
  cited: string;
}

const TEXT_FILE = /\.(ts|tsx|md|sql|css|json)$/;

/** The text files below `folders`, leaving installed packages, build output and hidden folders. */
export function readTextFiles(root: string, folders: readonly string[]): TextFile[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = posix.join(folder, entry.name);
      if (!entry.isDirectory()) return TEXT_FILE.test(entry.name) ? [path] : [];
      return entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')
        ? []
        : walk(path);
    });
  return folders
    .filter((folder) => existsSync(join(root, folder)))
    .flatMap(walk)
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** The line (from 1) of the character at `index`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The numbers of SPEC.md's numbered sections (`## 7. The calls…` gives `7`). */
export function specSections(spec: string): Set<string> {
  return new Set([...spec.matchAll(/^#{2,} (\d+(?:\.\d+)*)\.? /gm)].map((match) => match[1]!));
}

/**
 * Every section a `SPEC.md §…` citation names, lists too (`SPEC.md §5, §7 and §8`), also when
 * the `§` has wrapped onto the next comment line.
 */
export function specCitations(file: TextFile): Cited[] {
  const citation = /SPEC\.md(?:\s|\*|\/)*((?:§+\s?\d+(?:\.\d+)*(?:\s*(?:,|and|or|–|-|\/)\s*)?)+)/g;
  return [...file.text.matchAll(citation)].flatMap((match) =>
    [...match[1]!.matchAll(/\d+(?:\.\d+)*/g)].map((section) => ({
      at: `${file.path}:${lineAt(file.text, match.index + match[0].indexOf(section[0]))}`,
      cited: section[0],
    })),
  );
}

/** The citations whose section SPEC.md does not have. */
export function unknownSections(files: readonly TextFile[], sections: Set<string>): Cited[] {
  return files.flatMap(specCitations).filter((citation) => !sections.has(citation.cited));
}

/** A stretch of a file's text that is prose: a comment in code, the whole of a page of docs. */
interface Prose {
  index: number;
  text: string;
}

/**
 * The comments of a source file. String literals are matched too, and skipped, so that a `/*`
 * or `//` inside a string (a route pattern, an address) opens no comment.
 */
export function comments(file: TextFile): Prose[] {
  if (file.path.endsWith('.md')) return [{ index: 0, text: file.text }];
  const token = file.path.endsWith('.sql')
    ? /--[^\n]*|'(?:[^'\n])*'/g
    : /\/\*[\s\S]*?\*\/|(?<![:\\])\/\/[^\n]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
  return [...file.text.matchAll(token)]
    .filter((match) => /^(\/\/|\/\*|--)/.test(match[0]))
    .map((match) => ({ index: match.index, text: match[0] }));
}

/**
 * A repository file as comments write it: from the root (`worker/app.tsx`), from the file's own
 * folder (`./counting.ts`, `../shared/x.ts`) or from its top folder (`api/routes.ts` in
 * worker/). Patterns (`screens/<area>/x.tsx`, `worker/…/x.ts`) and addresses do not match.
 */
const FILE_PATH =
  /(?<![\w./@:-])((?:\.\.?\/)+[\w./-]+|[\w-]+\/[\w./-]+)\.(tsx|ts|md|sql|json|css|toml)(?![\w-])/g;

/** Folders that are not the repository's own text: installed packages and build output. */
const NOT_OURS = new Set(['node_modules', 'dist']);

/**
 * Where a path as written may start from: its own folder for `./` and `../`, else the root, the
 * file's top folder and its own folder, those of them that hold the path's first folder (a path
 * none of them holds, like `src/index.ts` of another project, names no file of ours).
 */
function bases(root: string, file: string, written: string): string[] {
  const own = posix.dirname(file);
  if (written.startsWith('.')) return [own];
  const first = written.split('/')[0]!;
  if (NOT_OURS.has(first)) return [];
  return ['.', file.split('/')[0]!, own].filter((base) => existsSync(join(root, base, first)));
}

/** A path `file`'s comments name, with the paths from the root it may mean. */
export interface Named extends Cited {
  candidates: string[];
}

/** The repository files `file`'s comments name. */
export function namedPaths(root: string, file: TextFile): Named[] {
  return comments(file).flatMap((prose) =>
    [...prose.text.matchAll(FILE_PATH)].flatMap((match) => {
      const cited = `${match[1]}.${match[2]}`;
      const candidates = bases(root, file.path, cited).map((base) =>
        posix.normalize(posix.join(base, cited)),
      );
      if (candidates.length === 0) return [];
      return [
        { at: `${file.path}:${lineAt(file.text, prose.index + match.index)}`, cited, candidates },
      ];
    }),
  );
}

/** The named paths no file of the repository answers, each with what the comment wrote. */
export function missingPaths(root: string, files: readonly TextFile[]): Cited[] {
  return files
    .flatMap((file) => namedPaths(root, file))
    .filter((named) => !named.candidates.some((path) => existsSync(join(root, path))))
    .map(({ at, cited }) => ({ at, cited }));
}

/** A module named without its folder (`the rule is in docs-check.ts`). */
const FILE_NAME = /(?<![\w./@:-])[\w-]+(?:\.[\w-]+)*\.tsx?(?![\w/-])/g;

/**
 * Names that are no module of ours: miniflare's fetch-sync.ts, where an assertion of its own is
 * explained, and `d.ts` as declaration files are called.
 */
const NOT_OUR_MODULES = new Set(['fetch-sync.ts', 'd.ts']);

/**
 * The modules the code's comments name without a folder that no file of the repository is
 * called: a comment names a neighbour so, and a moved neighbour keeps its name.
 */
export function missingModules(root: string, files: readonly TextFile[]): Cited[] {
  const names = new Set([...readdirSync(root), ...files.map((file) => posix.basename(file.path))]);
  return files
    .filter((file) => /\.tsx?$/.test(file.path))
    .flatMap((file) =>
      comments(file).flatMap((prose) =>
        [...prose.text.matchAll(FILE_NAME)].map((match) => ({
          at: `${file.path}:${lineAt(file.text, prose.index + match.index)}`,
          cited: match[0],
        })),
      ),
    )
    .filter(({ cited }) => !names.has(cited) && !NOT_OUR_MODULES.has(cited));
}
