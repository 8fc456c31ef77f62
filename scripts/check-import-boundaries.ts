import { fileURLToPath } from 'node:url';
import { importViolations, readSources } from './import-boundaries';
import { CYCLE_FOLDERS, importCycles } from './import-cycles';

/**
 * Part of `npm run check`: every import that crosses a folder boundary it may not, and every
 * import cycle, type-only imports apart (exit 1).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const violations = importViolations(readSources(root));
for (const { path, specifier, message } of violations) {
  console.error(`${path}: imports '${specifier}'. ${message}`);
}
const cycles = importCycles(readSources(root, CYCLE_FOLDERS));
for (const { ring, alsoCaught } of cycles) {
  const knot = alsoCaught.length > 0 ? ` (caught in it too: ${alsoCaught.join(', ')})` : '';
  console.error(
    `Import cycle: ${ring.join(' → ')}${knot}. Move what both sides need into the file one of them already imports, so imports run one way; type-only imports do not count.`,
  );
}
process.exitCode = violations.length === 0 && cycles.length === 0 ? 0 : 1;
