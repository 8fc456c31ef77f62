import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The worker's request path: the global middleware, then each sub-app with its own. */
export interface RequestPath {
  global: string[];
  subApps: { path: string; app: string; middleware: string[] }[];
}

/** `app.use(name(` or a kit's own, `app.use(devKit.provide(`. */
const USE = /\bapp\.use\(([\w.]+)\(/g;
const ROUTE = /\bapp\.route\(\s*([^,]+?),\s*(\w+)\(/g;

function usedMiddleware(source: string): string[] {
  return [...source.matchAll(USE)].map((match) => match[1] ?? '');
}

/** A module specifier of `file` as the file it names (.ts or .tsx). */
function moduleFile(file: string, specifier: string): string {
  const base = join(dirname(file), specifier);
  const found = ['.ts', '.tsx'].map((ext) => base + ext).find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error(`${file}: cannot find ${specifier}`);
  return found;
}

/** A path as written in app.tsx: a string literal, or a constant it imports. */
function pathValue(appFile: string, source: string, expression: string): string {
  const literal = /^'([^']*)'$/.exec(expression);
  if (literal) return literal[1] ?? '';
  const from = new RegExp(`import \\{[^}]*\\b${expression}\\b[^}]*\\} from '([^']+)'`).exec(source);
  if (!from?.[1]) throw new Error(`${appFile}: ${expression} is not imported`);
  const constant = new RegExp(`export const ${expression} = '([^']*)'`).exec(
    readFileSync(moduleFile(appFile, from[1]), 'utf8'),
  );
  if (!constant?.[1]) throw new Error(`${from[1]}: no string constant ${expression}`);
  return constant[1];
}

/** The request path as worker/app.tsx and worker/sub-apps/ build it. */
export function codeRequestPath(root: string): RequestPath {
  const appFile = join(root, 'worker/app.tsx');
  const source = readFileSync(appFile, 'utf8');
  const subAppsDir = join(root, 'worker/sub-apps');
  const subAppSources = readdirSync(subAppsDir).map((name) =>
    readFileSync(join(subAppsDir, name), 'utf8'),
  );
  const subApps = [...source.matchAll(ROUTE)].map((match) => {
    const app = match[2] ?? '';
    const own = subAppSources.find((text) => text.includes(`export function ${app}(`));
    if (own === undefined) throw new Error(`worker/sub-apps/ has no ${app}`);
    return {
      path: pathValue(appFile, source, match[1] ?? ''),
      app,
      middleware: usedMiddleware(own),
    };
  });
  return { global: usedMiddleware(source), subApps };
}

const MIDDLEWARE_LINE = /^ {2}([a-z][\w.]*)\b/;
const SUB_APP_LINE = /^(\/\S*)\s+(\w+App)\b/;

/**
 * The request path as docs/architecture.md lists it: in the first code block under "The request
 * path", the middleware lines (two spaces, a name) before the first sub-app line are the global
 * ones; a sub-app line (its path, its name) opens each sub-app, whose middleware lines follow.
 */
export function documentedRequestPath(markdown: string): RequestPath {
  const section = markdown.slice(markdown.indexOf('## The request path'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const path: RequestPath = { global: [], subApps: [] };
  for (const line of block.split('\n')) {
    const subApp = SUB_APP_LINE.exec(line);
    if (subApp) {
      path.subApps.push({ path: subApp[1] ?? '', app: subApp[2] ?? '', middleware: [] });
      continue;
    }
    const middleware = MIDDLEWARE_LINE.exec(line)?.[1];
    if (middleware === undefined) continue;
    const current = path.subApps.at(-1);
    (current ? current.middleware : path.global).push(middleware);
  }
  return path;
}

const ROOM_LINE = /^([a-z][\w-]*)\/\s/;
const ARROW_LINE = /^\s+→ (.*)$/;
const CONTINUED_LINE = /^\s+(\S.*)$/;

/**
 * The worker's rooms as docs/architecture.md draws them: in the first code block under "The
 * worker's rooms" (or another heading: "The experiments' rooms" draws that room's sub-rooms), a
 * line `room/  what it holds` opens each room, and the line `→ a, b` after it (wrapped onto
 * indented lines) names the rooms it imports, or `→ nothing`.
 */
export function documentedRooms(
  markdown: string,
  heading = "## The worker's rooms",
): Map<string, string[]> {
  const section = markdown.slice(markdown.indexOf(heading));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const rooms = new Map<string, string[]>();
  let current: string[] | undefined;
  let inArrow = false;
  for (const line of block.split('\n')) {
    const room = ROOM_LINE.exec(line)?.[1];
    if (room !== undefined) {
      current = [];
      rooms.set(room, current);
      inArrow = false;
      continue;
    }
    const arrow =
      ARROW_LINE.exec(line)?.[1] ?? (inArrow ? CONTINUED_LINE.exec(line)?.[1] : undefined);
    if (arrow === undefined || current === undefined) continue;
    inArrow = true;
    if (arrow !== 'nothing')
      current.push(
        ...arrow
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      );
  }
  for (const imported of rooms.values()) imported.sort();
  return new Map([...rooms].sort(([a], [b]) => a.localeCompare(b)));
}
