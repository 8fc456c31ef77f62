import { fileURLToPath } from 'node:url';
import { consoleRootFiles, kitFiles, loneKitFiles, looseConsoleFiles } from './console-root';
import { contextImports } from './context-imports';
import { importViolations, readSources } from './import-boundaries';
import { CYCLE_FOLDERS, importCycles } from './import-cycles';
import { isolatePromises } from './isolate-promises';
import { longFunctions, MAX_FUNCTION_LINES, MEASURED_FOLDERS } from './long-functions';
import { middlewareImporters, notMiddleware } from './middleware-only';
import { roomPairs } from './room-pairs';

/**
 * Part of `npm run check`: every import that crosses a folder boundary it may not, every
 * import cycle (type-only imports apart), every pair of worker rooms, or of sub-rooms of one
 * room, importing each other (room-pairs.ts), every worker module outside its middleware that
 * takes Hono's Context (context-imports.ts), every file in worker/middleware/ that is not
 * middleware and every import of it from below the sub-apps (middleware-only.ts), every promise
 * a worker or portal module keeps for later requests (isolate-promises.ts), every function
 * over 80 lines, every file at the console's root but its entry and every file of console/kit/
 * fewer than two areas use (console-root.ts) (exit 1).
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
const pairs = roomPairs(readSources(root, ['worker']));
for (const { rooms, examples } of pairs) {
  console.error(
    `worker/${rooms[0]} and worker/${rooms[1]} import each other (${examples.join('; ')}). Move what both need to the room the other already imports, or to a room of its own; type-only imports do not count.`,
  );
}
const contexts = contextImports(readSources(root, ['worker']));
for (const { path, message } of contexts) console.error(`${path}: ${message}`);
const workerSources = readSources(root, ['worker']);
const middleware = [...notMiddleware(workerSources), ...middlewareImporters(workerSources)];
for (const { path, message } of middleware) console.error(`${path}: ${message}`);
const kept = isolatePromises([...workerSources, ...readSources(root, ['portal'])]);
for (const { path, message } of kept) console.error(`${path}: ${message}`);
const long = longFunctions(readSources(root, MEASURED_FOLDERS));
for (const { path, line, name, lines } of long) {
  console.error(
    `${path}:${line}: ${name} is ${lines} lines, over ${MAX_FUNCTION_LINES}. Split it where its parts have names (a component, a store action, a module function taking its options).`,
  );
}
const loose = looseConsoleFiles(consoleRootFiles(root));
for (const name of loose) {
  console.error(
    `console/${name}: a file at the console's root, where only its entry (console/main.tsx) sits. Move it to the one area folder that uses it, or to console/kit/ when two or more areas do.`,
  );
}
const lone = loneKitFiles(readSources(root, ['console']), kitFiles(root));
for (const { path, areas } of lone) {
  const where =
    areas.length === 1
      ? `only console/${areas[0]}/ uses it: move it there`
      : 'no area of the console uses it: move it to the area it serves (console/page/ for the page around them), or remove it';
  console.error(
    `${path}: ${where}. console/kit/ holds only what two or more areas use, directly or through another kit file.`,
  );
}
const refusals =
  violations.length +
  cycles.length +
  pairs.length +
  contexts.length +
  middleware.length +
  kept.length +
  long.length +
  loose.length +
  lone.length;
process.exitCode = refusals === 0 ? 0 : 1;
