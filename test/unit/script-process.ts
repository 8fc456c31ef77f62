import { join } from 'node:path';
import { PROJECT_ROOT } from '../../scripts/local-platform';

/**
 * The project's tsx, for a test that runs one of our scripts as a process of its own, as its npm
 * script does (`tsx scripts/….ts`): started straight rather than through npx, which cost each
 * start about a processor-second of npm's own before tsx began (1.3 s against 0.4 s for an empty
 * script, measured back to back).
 */
export const TSX = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
