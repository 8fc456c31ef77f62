import { fileURLToPath } from 'node:url';
import { importViolations, readSources } from './import-boundaries';

/** Part of `npm run check`: every import that crosses a folder boundary it may not (exit 1). */
const violations = importViolations(readSources(fileURLToPath(new URL('..', import.meta.url))));
for (const { path, specifier, message } of violations) {
  console.error(`${path}: imports '${specifier}'. ${message}`);
}
process.exitCode = violations.length === 0 ? 0 : 1;
