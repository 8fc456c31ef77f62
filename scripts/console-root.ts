import { readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';
import type { Source } from './import-boundaries';
import { resolve } from './import-cycles';

/**
 * Nothing at the console's root but its entry (`npm run check`, check-house.ts). The console is a
 * folder per area of its page (`console/traffic/`, `console/results/`) and `console/kit/` for what
 * two or more areas use, so a file's folder says which part of the page it serves; a loose file
 * at the root says nothing of that, and the root filled with them once (33 files). Folders are
 * the areas, so only files are refused.
 */
export const CONSOLE_ENTRY = 'main.tsx';

/** The files right under `console/` (not its folders), by name. */
export function consoleRootFiles(root: string): string[] {
  return readdirSync(join(root, 'console'), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** The files at the console's root other than its entry, sorted. */
export function looseConsoleFiles(names: Iterable<string>): string[] {
  return [...names].filter((name) => name !== CONSOLE_ENTRY).sort();
}

/**
 * What `console/kit/` holds (`npm run check`, check-house.ts): only what two or more areas use.
 * A kit file one area alone uses is that area's: kept in the kit, it says nothing of where it
 * serves, and the kit fills up as the root once did. An area uses a kit file when one of its
 * files imports it, or imports a kit file that does (the publishing store writes the history
 * the history area shows, so every area that publishes uses the history's store); type-only
 * imports count, since a type is read where it is declared. The entry, console/main.tsx, is no
 * area.
 */
const CONSOLE_KIT = 'console/kit/';

/** A kit file that fewer than two areas use, and the areas that do (folders under console/). */
interface LoneKitFile {
  path: string;
  areas: string[];
}

/** Every file under console/kit/ (its stylesheet too), as a path from the repository's root. */
export function kitFiles(root: string): string[] {
  return readdirSync(join(root, CONSOLE_KIT), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => posix.join(relative(root, entry.parentPath).split(sep).join('/'), entry.name))
    .sort();
}

/** The area a console file is in (`traffic` for console/traffic/…); null for the kit and the entry. */
function areaOf(path: string): string | null {
  const parts = path.split('/');
  return parts[0] === 'console' && parts.length > 2 && parts[1] !== 'kit'
    ? (parts[1] ?? null)
    : null;
}

/** Each kit file and the console files importing it. */
function kitImporters(sources: readonly Source[], kit: readonly string[]): Map<string, string[]> {
  const paths = new Set([...sources.map((source) => source.path), ...kit]);
  const importers = new Map(kit.map((path) => [path, [] as string[]]));
  for (const { path, text } of sources) {
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(paths, path, fileName);
      if (target !== undefined && target !== path) importers.get(target)?.push(path);
    }
  }
  return importers;
}

/**
 * The kit files (`kit`, every file under console/kit/) that fewer than two areas use, given the
 * console's sources, each with the areas that use it, sorted.
 */
export function loneKitFiles(sources: Iterable<Source>, kit: Iterable<string>): LoneKitFile[] {
  const files = [...kit];
  const importers = kitImporters([...sources], files);
  const areasUsing = (path: string, seen: Set<string>, areas: Set<string>): Set<string> => {
    if (seen.has(path)) return areas;
    seen.add(path);
    for (const importer of importers.get(path) ?? []) {
      const area = areaOf(importer);
      if (area !== null) areas.add(area);
      else if (importer.startsWith(CONSOLE_KIT)) areasUsing(importer, seen, areas);
    }
    return areas;
  };
  return files
    .map((path) => ({ path, areas: [...areasUsing(path, new Set(), new Set())].sort() }))
    .filter(({ areas }) => areas.length < 2);
}
