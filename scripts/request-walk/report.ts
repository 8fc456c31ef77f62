import type { RoomSequence, WalkCount } from './count';

/** One measured request as `npm run walk` reports it. */
export interface WalkedRequest extends WalkCount {
  name: string;
  before: string;
  status: number;
}

export interface WalkReport {
  repo: string;
  commit: string;
  /** How long the worker printed nothing before a walk was read. */
  quietMs: number;
  requests: WalkedRequest[];
}

const WIDTH = 100;

/** `label`, then the rooms joined by arrows, wrapped under it to stay readable in a terminal. */
function roomLines(label: string, rooms: readonly string[]): string[] {
  const lines = [label];
  for (const [index, room] of rooms.entries()) {
    const step = index === 0 ? room : ` → ${room}`;
    const last = lines.length - 1;
    if ((lines[last] ?? '').length + step.length > WIDTH && index > 0)
      lines.push(`      → ${room}`);
    else lines[last] += step;
  }
  return lines;
}

function returned(sequence: RoomSequence): string {
  return sequence.returns === 0
    ? '0'
    : `${sequence.returns} (to ${sequence.returnedTo.join(', ')})`;
}

function describeRequest(request: WalkedRequest): string[] {
  const { byFirstEntry } = request;
  return [
    `${request.name}: answered ${request.status}`,
    `  before it: ${request.before}`,
    `  worker files entered: ${request.files.length}`,
    ...request.files.map((file, index) => `    ${String(index + 1).padStart(3)}  ${file}`),
    ...roomLines(`  rooms, in order (${request.rooms.length}): `, request.rooms),
    `  returns to a room already left: ${returned(request)}`,
    ...roomLines(
      `  rooms by each file's first entry (${byFirstEntry.rooms.length}): `,
      byFirstEntry.rooms,
    ),
    `  returns to a room already left, by first entry: ${returned(byFirstEntry)}`,
  ];
}

/** The readable report: what was counted, then each request. */
export function formatWalkReport(report: WalkReport): string {
  const summary = report.requests.map(
    (request) =>
      `  ${request.name}: ${request.files.length} files, ${request.rooms.length} rooms in turn, ` +
      `${request.returns} returns (${request.byFirstEntry.returns} by first entry)`,
  );
  return [
    `Request walks of ${report.repo} at ${report.commit} (the development bundle, traced).`,
    'Counted: worker/ files on production’s path; not worker/dev/ nor worker/dev.ts (the',
    'development kit and entry), shared/, screens/, portal/ or node_modules. A room is a folder',
    'right under worker/ ("worker" for its root files). Each walk includes the work the request',
    `left to run after its answer (waitUntil, the queue batch it filled), read after ${report.quietMs} ms`,
    'in which the worker printed nothing.',
    '',
    ...report.requests.flatMap((request) => [...describeRequest(request), '']),
    'Summary:',
    ...summary,
  ].join('\n');
}
