import { readdirSync } from 'node:fs';
import { join } from 'node:path';

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
