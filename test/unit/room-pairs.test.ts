import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../scripts/import-boundaries';
import { roomPairs } from '../../scripts/room-pairs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Planted files, each given as its lines. */
function planted(files: Record<string, readonly string[]>) {
  return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
}

describe('no two worker rooms, nor two sub-rooms of one, import each other (npm run check)', () => {
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

  /** The worker's files, read once for the planted cases below. */
  let workerSources: ReturnType<typeof readSources> | undefined;

  /**
   * The worker as it is, with one file planted in sub-room `from` of worker/experiments that
   * imports `target` at run time: the other way round from the imports the code already has.
   */
  function plantedBack(from: string, target: string) {
    const planted = {
      path: `worker/experiments/${from}/planted.ts`,
      text: `import { x } from '../${target}';`,
    };
    workerSources ??= readSources(ROOT, ['worker']);
    return roomPairs([...workerSources, planted]);
  }

  it.each([
    ['store', 'results/totals', 'experiments/results', 'experiments/store'],
    ['results', 'answer/experiment-results', 'experiments/answer', 'experiments/results'],
    ['assignment', 'config/evaluate', 'experiments/assignment', 'experiments/config'],
  ])(
    'refuses %s/ of worker/experiments importing %s back at run time',
    {
      timeout: 30_000,
    },
    (from, target, first, second) => {
      const pairs = plantedBack(from, target);
      expect(pairs.map((pair) => pair.rooms)).toEqual([[first, second]]);
      expect(pairs[0]?.examples).toContain(
        `worker/experiments/${from}/planted.ts → worker/experiments/${target}.ts`,
      );
    },
  );

  it('refuses two sub-rooms importing each other either way round, naming one import each way', () => {
    const files = {
      'worker/experiments/results/totals.ts': ["import { rows } from '../store/rows';"],
      'worker/experiments/store/rows.ts': [
        "import { bucket } from '../results/buckets';",
        'export const rows = bucket;',
      ],
      'worker/experiments/results/buckets.ts': ['export const bucket = 1;'],
    };
    const refused = {
      rooms: ['experiments/results', 'experiments/store'],
      examples: [
        'worker/experiments/results/totals.ts → worker/experiments/store/rows.ts',
        'worker/experiments/store/rows.ts → worker/experiments/results/buckets.ts',
      ],
    };
    expect(roomPairs(planted(files))).toEqual([refused]);
    // Listed the other way round, the pair is the same.
    expect(roomPairs(planted(files).reverse())).toEqual([refused]);
  });

  it('lets a type-only import back between sub-rooms, a room’s own root files and other rooms’ sub-rooms pass', () => {
    const pairs = roomPairs(
      planted({
        'worker/experiments/results/totals.ts': ["import { rows } from '../store/rows';"],
        'worker/experiments/store/rows.ts': [
          "import type { Bucket } from '../results/buckets';",
          "import { shard } from '../shard';",
          "import { link } from '../../collector/consumer/link';",
          'export const rows = shard;',
        ],
        'worker/experiments/results/buckets.ts': ['export type Bucket = 1;'],
        'worker/experiments/shard.ts': [
          "import { rows } from './store/rows';",
          'export const shard = 1;',
        ],
        'worker/collector/consumer/link.ts': ['export const link = 1;'],
      }),
    );
    expect(pairs).toEqual([]);
  });
});
