/**
 * What a request's trace says (scripts/request-walk.ts): the worker files it entered, in the order
 * of their first entry, the rooms it went through, and how often it came back to a room it had
 * left. A room is a folder right under `worker/` (`worker/purchases/`, `worker/session/`); the
 * files at `worker/`'s root are the room "worker".
 */

export interface RoomSequence {
  /** The room of each entry in turn, consecutive repeats collapsed. */
  rooms: string[];
  /** Each time the sequence enters a room it had already left. */
  returns: number;
  /** The rooms returned to, once each, in the order of their first return. */
  returnedTo: string[];
}

export interface WalkCount extends RoomSequence {
  /** Each file once, in the order the request first entered it. */
  files: string[];
  /**
   * The rooms of `files` in that order: the way through the code, without the calls back into
   * a small helper (`isDevelopment`) that the full sequence counts each time.
   */
  byFirstEntry: RoomSequence;
}

/** The room of a worker file: its folder right under `worker/`, or "worker" for the root. */
export function roomOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? (parts[1] ?? 'worker') : 'worker';
}

function roomSequence(entries: readonly string[]): RoomSequence {
  const rooms: string[] = [];
  for (const entry of entries) {
    const room = roomOf(entry);
    if (rooms.at(-1) !== room) rooms.push(room);
  }
  const left = new Set<string>();
  const returnedTo = new Set<string>();
  let returns = 0;
  rooms.forEach((room, index) => {
    if (left.has(room)) {
      returns += 1;
      returnedTo.add(room);
    }
    const previous = rooms[index - 1];
    if (previous !== undefined) left.add(previous);
  });
  return { rooms, returns, returnedTo: [...returnedTo] };
}

/** `entries`: the file of each traced function entry, in order. */
export function countWalk(entries: readonly string[]): WalkCount {
  const files = [...new Set(entries)];
  return { files, ...roomSequence(entries), byFirstEntry: roomSequence(files) };
}
