import type { Source } from './import-boundaries';
import { resolve, valueImports } from './import-cycles';

/**
 * No two rooms of the worker import each other at run time (`npm run check`, check-house.ts). A
 * room is a folder right under `worker/` (`worker/purchases/`, `worker/session/`); the files at
 * `worker/`'s root are the house itself (the app, its bindings) and are no room. A pair that
 * imports both ways is one room in two folders, or a toolbox both lean on: what both need moves
 * to the one the other already imports, or to a room of its own. Type-only imports do not count.
 */

export interface RoomPair {
  rooms: [string, string];
  /** One import each way, `from → to`. */
  examples: [string, string];
}

function roomOf(path: string): string | null {
  const parts = path.split('/');
  return parts[0] === 'worker' && parts.length > 2 ? (parts[1] ?? null) : null;
}

/** Each room's imports of other rooms at run time: `from → to` mapped to one import that makes it. */
function roomEdges(sources: Iterable<Source>): Map<string, string> {
  const all = [...sources];
  const paths = new Set(all.map((source) => source.path));
  const edges = new Map<string, string>();
  for (const source of all) {
    const from = roomOf(source.path);
    if (from === null) continue;
    for (const specifier of valueImports(source.path, source.text)) {
      const target = resolve(paths, source.path, specifier);
      const to = target === undefined ? null : roomOf(target);
      if (to === null || to === from) continue;
      const key = `${from}\u0000${to}`;
      if (!edges.has(key)) edges.set(key, `${source.path} → ${target}`);
    }
  }
  return edges;
}

/**
 * Every room with a file of its own and the rooms it imports at run time, each list sorted: the
 * map of the worker that docs/architecture.md draws (test/unit/request-path.test.ts).
 */
export function roomImports(sources: Iterable<Source>): Map<string, string[]> {
  const all = [...sources];
  const rooms = new Map<string, string[]>();
  for (const source of all) {
    const room = roomOf(source.path);
    if (room !== null && !rooms.has(room)) rooms.set(room, []);
  }
  for (const key of roomEdges(all).keys()) {
    const [from = '', to = ''] = key.split('\u0000');
    rooms.get(from)?.push(to);
  }
  for (const imported of rooms.values()) imported.sort();
  return new Map([...rooms].sort(([a], [b]) => a.localeCompare(b)));
}

export function roomPairs(sources: Iterable<Source>): RoomPair[] {
  const edges = roomEdges(sources);
  const pairs: RoomPair[] = [];
  for (const [key, example] of edges) {
    const [from = '', to = ''] = key.split('\u0000');
    const back = edges.get(`${to}\u0000${from}`);
    if (back !== undefined && from < to)
      pairs.push({ rooms: [from, to], examples: [example, back] });
  }
  return pairs.sort((a, b) => a.rooms.join().localeCompare(b.rooms.join()));
}
