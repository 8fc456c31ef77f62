import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The check that keeps README.md and docs/ from rotting quietly: a relative link that points
 * nowhere (a file, or a heading's #anchor), an `npm run` script package.json lacks, or an
 * environment name the project does not have.
 *
 * An environment name is an inline code span that is a name in capitals (`/^[A-Z][A-Z0-9_]{2,}$/`),
 * the NAME of `secret put NAME` or the NAME of a `NAME=value` prefix, in code spans and code
 * blocks alike. It must be one of the project's: a key of wrangler.toml's vars or a binding there,
 * a property of worker/env.ts's `Bindings` (and the interfaces it extends), or a variable the
 * scripts and tests read from `process.env` (directly, or by a name in quotes in a file that
 * reads `process.env[name]`), or .ci/run from its shell. A name in capitals that
 * is not an environment name passes when the code declares it (`const API_CALLS = …`: a
 * constant the page points at), or when it is on NOT_ENVIRONMENT below, words of other systems.
 */

/** Names in capitals that pages quote from other systems, never environment names. */
const NOT_ENVIRONMENT = new Set([
  // Google Geocoding API statuses (docs/operate.md, "Reading the logs").
  'ZERO_RESULTS',
  'REQUEST_DENIED',
  'OVER_QUERY_LIMIT',
  'OVER_DAILY_LIMIT',
  'INVALID_REQUEST',
  'UNKNOWN_ERROR',
  // SQL.
  'INSERT',
  'SELECT',
]);

const ENV_NAME = /^[A-Z][A-Z0-9_]{2,}$/;

export interface ProjectFacts {
  scripts: Set<string>;
  environment: Set<string>;
  constants: Set<string>;
}

function sourceFiles(root: string, folder: string): string[] {
  const start = join(root, folder);
  if (!existsSync(start)) return [];
  return readdirSync(start, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file) && !file.includes('node_modules'))
    .map((file) => join(start, file));
}

/** Uppercase property names of the `interface <name>` in a file (`NAME?: type`). */
function interfaceProperties(text: string, name: string): string[] {
  const start = text.search(new RegExp(`interface ${name}\\b`));
  if (start === -1) return [];
  const open = text.indexOf('{', start);
  let depth = 0;
  let end = open;
  for (; end < text.length; end++) {
    if (text[end] === '{') depth++;
    if (text[end] === '}' && --depth === 0) break;
  }
  return [...text.slice(open, end).matchAll(/^\s*([A-Z][A-Z0-9_]*)\??:/gm)].map((m) => m[1] ?? '');
}

/** worker/env.ts's `Bindings`, with the interfaces it extends, found through their imports. */
export function bindingNames(root: string): string[] {
  const envFile = join(root, 'worker/env.ts');
  const text = readFileSync(envFile, 'utf8');
  const names = interfaceProperties(text, 'Bindings');
  const heritage = /interface Bindings\s+extends([^{]+)\{/.exec(text)?.[1] ?? '';
  for (const [, parent] of heritage.matchAll(/([A-Za-z]+Bindings)\b/g)) {
    const from = new RegExp(`import type \\{[^}]*\\b${parent}\\b[^}]*\\} from '([^']+)'`).exec(
      text,
    )?.[1];
    if (!from) throw new Error(`worker/env.ts: no import of ${parent}`);
    const file = resolve(dirname(envFile), `${from}.ts`);
    names.push(...interfaceProperties(readFileSync(file, 'utf8'), parent ?? ''));
  }
  return names;
}

/** What the project has, read from package.json, wrangler.toml, worker/env.ts and the code. */
export function readProjectFacts(root: string): ProjectFacts {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const environment = new Set<string>();
  const wrangler = readFileSync(join(root, 'wrangler.toml'), 'utf8');
  for (const [, name] of wrangler.matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm)) environment.add(name ?? '');
  for (const [, name] of wrangler.matchAll(/^(?:binding|name)\s*=\s*"([A-Z][A-Z0-9_]*)"/gm))
    environment.add(name ?? '');
  for (const name of bindingNames(root)) environment.add(name);
  const tooling = [
    ...sourceFiles(root, 'scripts'),
    ...sourceFiles(root, 'test'),
    join(root, 'vitest.config.ts'),
    join(root, 'vite.config.ts'),
  ];
  for (const file of tooling) {
    const text = readFileSync(file, 'utf8');
    for (const [, name] of text.matchAll(/process\.env(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g))
      environment.add(name ?? '');
    // A file that reads `process.env[name]` through a helper of its own names its variables as
    // strings (`readPositiveInt('BENCH_RUNS', 5)`).
    if (text.includes('process.env['))
      for (const [, name] of text.matchAll(/['"]([A-Z][A-Z0-9_]{2,})['"]/g))
        environment.add(name ?? '');
  }
  const ci = join(root, '.ci/run');
  if (existsSync(ci))
    for (const [, name] of readFileSync(ci, 'utf8').matchAll(/\$\{?([A-Z][A-Z0-9_]+)/g))
      environment.add(name ?? '');

  const constants = new Set<string>();
  const code = [
    'shared',
    'worker',
    'islands',
    'console',
    'screens',
    'portal',
    'scripts',
    'test-gateway',
  ].flatMap((folder) => sourceFiles(root, folder));
  for (const file of code)
    for (const [, name] of readFileSync(file, 'utf8').matchAll(
      /\b(?:const|let|function|class|enum)\s+([A-Z][A-Z0-9_]{2,})\b/g,
    ))
      constants.add(name ?? '');
  return { scripts: new Set(Object.keys(pkg.scripts)), environment, constants };
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

interface ParsedPage {
  /** The text outside fenced code blocks, inline code spans blanked. */
  prose: string;
  /** Inline code spans outside fenced blocks. */
  spans: string[];
  /** Lines of fenced code blocks. */
  code: string[];
  anchors: Set<string>;
}

function parsePage(text: string): ParsedPage {
  const prose: string[] = [];
  const code: string[] = [];
  const spans: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      code.push(line);
      continue;
    }
    for (const [, span] of line.matchAll(/`([^`]+)`/g)) spans.push(span ?? '');
    const withoutSpans = line.replace(/`[^`]*`/g, '``');
    prose.push(withoutSpans);
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = headingAnchor(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
  }
  return { prose: prose.join('\n'), spans, code, anchors };
}

const pageCache = new Map<string, ParsedPage>();

function parsedFile(file: string): ParsedPage {
  let page = pageCache.get(file);
  if (!page) {
    page = parsePage(readFileSync(file, 'utf8'));
    pageCache.set(file, page);
  }
  return page;
}

function environmentNames(page: ParsedPage): string[] {
  const names: string[] = [];
  for (const span of page.spans) {
    const text = span.trim();
    if (ENV_NAME.test(text)) names.push(text);
  }
  for (const text of [...page.spans, ...page.code]) {
    for (const [, name] of text.matchAll(/\bsecret put ([A-Z][A-Z0-9_]*)/g)) names.push(name ?? '');
    for (const [, name] of text.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]{2,})=\S/g))
      names.push(name ?? '');
  }
  return names;
}

/** What is wrong with one page (`file`, absolute), as sentences; empty when nothing is. */
export function checkPage(file: string, facts: ProjectFacts, root: string): string[] {
  const page = parsedFile(file);
  const where = relative(root, file);
  const problems: string[] = [];

  for (const [, target] of page.prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const destination = path === '' ? file : resolve(dirname(file), decodeURI(path));
    if (!existsSync(destination)) {
      problems.push(`${where}: link to ${target}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!destination.endsWith('.md') || statSync(destination).isDirectory()) {
      problems.push(`${where}: link to ${target}: an anchor into a file that is not a page`);
    } else if (!parsedFile(destination).anchors.has(anchor)) {
      problems.push(`${where}: link to ${target}: no heading with that anchor`);
    }
  }

  const commands = [page.prose, ...page.spans, ...page.code].join('\n');
  for (const [, script] of commands.matchAll(/\bnpm run ([a-z][\w:.-]*)/g))
    if (!facts.scripts.has(script ?? ''))
      problems.push(`${where}: npm run ${script}: package.json has no such script`);
  for (const [, script] of commands.matchAll(/\bnpm (start|test)\b/g))
    if (!facts.scripts.has(script ?? ''))
      problems.push(`${where}: npm ${script}: package.json has no such script`);

  for (const name of new Set(environmentNames(page)))
    if (!facts.environment.has(name) && !facts.constants.has(name) && !NOT_ENVIRONMENT.has(name))
      problems.push(`${where}: ${name}: no such environment variable, binding or secret`);
  return problems;
}

/** README.md and every page under docs/, absolute. */
export function documentationPages(root: string): string[] {
  const docs = join(root, 'docs');
  return [
    join(root, 'README.md'),
    ...readdirSync(docs, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.md'))
      .map((file) => join(docs, file)),
  ];
}
