import { describe, expect, it } from 'vitest';
import { BOUNDARIES, importViolations } from '../../../scripts/import-boundaries';

describe('the console’s wall (ARCHITECTURE.md, Where code runs)', () => {
  it('lets console/ import shared/ only, and nobody outside the worker’s build import it', () => {
    const message = BOUNDARIES.find((b) => b.folder === 'console')?.message;
    const planted = importViolations([
      {
        path: 'console/split/planted.tsx',
        text: [
          "import { CONSOLE_API } from '../../shared/console-api';",
          "import { changeText } from '../kit/change-text';",
          "import { $app } from '../../islands/stores/app';",
          "import { parseSplit } from '../../worker/config/schema';",
        ].join('\n'),
      },
      { path: 'islands/planted.ts', text: "import { Console } from '../console/Console';" },
      { path: 'worker/planted.ts', text: "import { Console } from '../console/Console';" },
    ]);
    expect(planted.map(({ path, specifier }) => `${path} → ${specifier}`)).toEqual([
      'console/split/planted.tsx → ../../islands/stores/app',
      'console/split/planted.tsx → ../../worker/config/schema',
      'islands/planted.ts → ../console/Console',
      'worker/planted.ts → ../console/Console',
    ]);
    expect(planted[0]?.message).toBe(message);
  });
});
