import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CITING_FOLDERS,
  readTextFiles,
  specCitations,
  specSections,
  unknownSections,
} from './source-references';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = readFileSync(join(ROOT, 'SPEC.md'), 'utf8');
/** The spec's home beside the repository, where a clone has it (CI clones both). */
const SHARED_SPEC = join(ROOT, '../shared/SPEC.md');

describe('SPEC.md, in the repository, answers every citation of it', () => {
  it('has every section a `SPEC.md §n` of the code, the tests or the docs names', () => {
    const unknown = unknownSections(readTextFiles(ROOT, CITING_FOLDERS), specSections(SPEC));
    expect(unknown.map(({ at, cited }) => `${at}: SPEC.md §${cited}`)).toEqual([]);
  });

  it.skipIf(!existsSync(SHARED_SPEC))(
    'is the same text as ../shared/SPEC.md (skipped where no ../shared is cloned beside it)',
    () => {
      expect(SPEC === readFileSync(SHARED_SPEC, 'utf8'), 'copy ../shared/SPEC.md to SPEC.md').toBe(
        true,
      );
    },
  );
});

describe('the citation check itself', () => {
  it("reads the numbered sections from SPEC.md's headings", () => {
    expect([...specSections(SPEC)]).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect([...specSections('# Title\n\n## 3. A\n### 3.1 B\ntext 4. no\n')]).toEqual(['3', '3.1']);
  });

  it('reads lists and citations wrapped onto the next comment line, with their lines', () => {
    // Written apart, so that this file cites no section the spec lacks.
    const spec = 'SPEC.md';
    const text = [
      `/** The toast (${spec} §4, §8 and §12). */`,
      `// ${spec} §3's fields; §5 alone is no citation of ${spec}`,
      ` * the text of ${spec}`,
      ' * §9: a rule.',
    ].join('\n');
    expect(specCitations({ path: 'worker/x.ts', text })).toEqual([
      { at: 'worker/x.ts:1', cited: '4' },
      { at: 'worker/x.ts:1', cited: '8' },
      { at: 'worker/x.ts:1', cited: '12' },
      { at: 'worker/x.ts:2', cited: '3' },
      { at: 'worker/x.ts:4', cited: '9' },
    ]);
    expect(unknownSections([{ path: 'worker/x.ts', text }], specSections(SPEC))).toEqual([
      { at: 'worker/x.ts:1', cited: '12' },
    ]);
  });
});
