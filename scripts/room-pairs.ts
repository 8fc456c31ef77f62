import type { Source } from './import-boundaries';
import { resolve, valueImports } from './import-cycles';

/**
 * No two rooms of the worker import each other at run time, nor two sub-rooms of one room
 * (`npm run check`, check-house.ts). A room is a folder right under `worker/` (`worker/purchases/`,
 * `worker/session/`); the files at `worker/`'s root are the house itself (the app, its bindings)
 * and are no room. A sub-room is a folder right under a room (`worker/experiments/store/`); the
 * files at a room's root are that room's own and are no sub-room. A pair that imports both ways
 * is one room in two folders, or a toolbox both lean on: what both need moves to the one the
 * other already imports, or to a room of its own. Type-only imports do not count.
 */

export interface RoomPair {
  /** The two rooms as paths under `worker/`: `purchases`, or `experiments/store` for sub-rooms. */
  rooms: [string, string];
  /** One import each way, `from → to`. */
  examples: [string, string];
}

/** The worker's rooms (depth 1) or their sub-rooms (depth 2). */
type Depth = 1 | 2;

/**
 * The room of a worker file at `depth`, as its path under `worker/` (`purchases`,
 * `experiments/store`); null for a file at the root of the level above.
 */
function roomOf(path: string, depth: Depth): string | null {
  const parts = path.split('/');
  if (parts[0] !== 'worker' || parts.length <= depth + 1) return null;
  return parts.slice(1, depth + 1).join('/');
}

/** The room a sub-room is in (`experiments` for `experiments/store`). */
function parentOf(room: string): string {
  return room.split('/').slice(0, -1).join('/');
}

/**
 * The imports at run time between rooms at `depth` (sub-rooms only within one room):
 * `from → to` mapped to one import that makes it.
 */
function roomEdges(sources: Iterable<Source>, depth: Depth): Map<string, string> {
  const all = [...sources];
  const paths = new Set(all.map((source) => source.path));
  const edges = new Map<string, string>();
  for (const source of all) {
    const from = roomOf(source.path, depth);
    if (from === null) continue;
    for (const specifier of valueImports(source.path, source.text)) {
      const target = resolve(paths, source.path, specifier);
      const to = target === undefined ? null : roomOf(target, depth);
      if (to === null || to === from || parentOf(to) !== parentOf(from)) continue;
      const key = `${from}\u0000${to}`;
      if (!edges.has(key)) edges.set(key, `${source.path} → ${target}`);
    }
  }
  return edges;
}

/**
 * Every room with a file of its own and the rooms it imports at run time, each list sorted: the
 * map of the worker that docs/architecture.md draws (test/unit/request-path.test.ts). Given a
 * room (`experiments`), its sub-rooms instead, named within it (`store`).
 */
export function roomImports(sources: Iterable<Source>, within?: string): Map<string, string[]> {
  const all = [...sources];
  const depth: Depth = within === undefined ? 1 : 2;
  const prefix = within === undefined ? '' : `${within}/`;
  const inside = (room: string) => parentOf(room) === (within ?? '');
  const rooms = new Map<string, string[]>();
  for (const source of all) {
    const room = roomOf(source.path, depth);
    if (room !== null && inside(room) && !rooms.has(room)) rooms.set(room, []);
  }
  for (const key of roomEdges(all, depth).keys()) {
    const [from = '', to = ''] = key.split('\u0000');
    rooms.get(from)?.push(to.slice(prefix.length));
  }
  for (const imported of rooms.values()) imported.sort();
  return new Map(
    [...rooms]
      .map(([room, imported]) => [room.slice(prefix.length), imported] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** The rooms, then the sub-rooms of one room, that import each other at run time. */
export function roomPairs(sources: Iterable<Source>): RoomPair[] {
  const all = [...sources];
  const pairs: RoomPair[] = [];
  for (const depth of [1, 2] as const) {
    const edges = roomEdges(all, depth);
    for (const [key, example] of edges) {
      const [from = '', to = ''] = key.split('\u0000');
      const back = edges.get(`${to}\u0000${from}`);
      if (back !== undefined && from < to)
        pairs.push({ rooms: [from, to], examples: [example, back] });
    }
  }
  return pairs.sort((a, b) => a.rooms.join().localeCompare(b.rooms.join()));
}
