import { describe, expect, it } from 'vitest';
import { roomPairs } from '../../scripts/room-pairs';

/** Planted files, each given as its lines. */
function planted(files: Record<string, readonly string[]>) {
  return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
}

describe('no two worker rooms import each other (npm run check)', () => {
  it('refuses a pair of rooms importing each other at run time, naming one import each way', () => {
    const pairs = roomPairs(
      planted({
        'worker/purchases/charge.ts': ["import { limit } from '../rate-limits/gate';"],
        'worker/rate-limits/gate.ts': [
          "import { owner } from '../purchases/owner';",
          'export const limit = owner;',
        ],
        'worker/purchases/owner.ts': ['export const owner = 1;'],
      }),
    );
    expect(pairs).toEqual([
      {
        rooms: ['purchases', 'rate-limits'],
        examples: [
          'worker/purchases/charge.ts → worker/rate-limits/gate.ts',
          'worker/rate-limits/gate.ts → worker/purchases/owner.ts',
        ],
      },
    ]);
  });

  it('lets a type-only import back, one-way imports and the files at worker’s root pass', () => {
    const pairs = roomPairs(
      planted({
        'worker/purchases/charge.ts': [
          "import { limit } from '../rate-limits/gate';",
          "import { env } from '../env';",
        ],
        'worker/rate-limits/gate.ts': [
          "import type { Owner } from '../purchases/owner';",
          "import { env } from '../env';",
        ],
        'worker/purchases/owner.ts': ['export type Owner = 1;'],
        'worker/env.ts': ["import { limit } from './rate-limits/gate';", 'export const env = 1;'],
      }),
    );
    expect(pairs).toEqual([]);
  });
});
