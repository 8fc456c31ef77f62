import { printTable } from '../print-table';
import {
  HEADROOM_GOALS,
  type Mix,
  mixed,
  monthsToFull,
  type PerVisitor,
  type Verdict,
} from './extrapolate';
import type { Measured } from './limit-lines';
import type { otherStores } from './measure';
import { TABLE_RETENTION } from './retention';

/** Prints the data benchmark's tables. */

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? value.toFixed(0) : value.toPrecision(3)} ${units[unit]}`;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '∞';
  if (value === 0) return '0';
  if (Math.abs(value) >= 100) return value.toFixed(0);
  return value.toPrecision(3);
}

function formatAmount(value: number, unit: string): string {
  return unit === 'B' ? formatBytes(value) : `${formatNumber(value)}${unit}`;
}

const threeColumns = (value: PerVisitor, mix: Mix, format: (n: number) => string) => [
  format(value.lookup),
  format(value.paying),
  format(mixed(value, mix)),
];

export function printPerVisitor(
  measured: Measured,
  others: ReturnType<typeof otherStores>,
  mix: Mix,
): void {
  const rows: string[][] = [];
  const count = (store: string, what: string, value: PerVisitor) =>
    rows.push([store, what, ...threeColumns(value, mix, formatNumber)]);
  const bytes = (store: string, what: string, value: PerVisitor) =>
    rows.push([store, what, ...threeColumns(value, mix, formatBytes)]);
  for (const [binding, d1] of Object.entries(measured.d1)) {
    const store = `D1 ${binding}`;
    count(store, 'statements', d1.statements);
    count(store, '  reads', d1.reads);
    count(store, '  writes', d1.writes);
    count(store, 'rows read', d1.rowsRead);
    count(store, 'rows written', d1.rowsWritten);
    for (const table of d1.tables) {
      if (table.bytesPerVisitor.lookup === 0 && table.bytesPerVisitor.paying === 0) continue;
      const kept = TABLE_RETENTION[`${binding}.${table.table}`];
      const retention = kept ? `kept ${formatNumber(kept.days)} d` : 'kept for good';
      bytes(store, `bytes in ${table.table} (${retention})`, table.bytesPerVisitor);
    }
  }
  for (const [binding, classes] of Object.entries(measured.durableObjects)) {
    for (const figures of classes) {
      const store = `DO ${binding}`;
      count(store, `requests to ${figures.keyClass} (${figures.kind})`, figures.requestsPerVisitor);
      bytes(store, `  storage of ${figures.keyClass}`, figures.bytesPerVisitor);
    }
  }
  for (const [binding, queue] of Object.entries(measured.queues)) {
    count(`Queue ${binding}`, 'messages', queue.messages);
    bytes(`Queue ${binding}`, 'message bytes', queue.bytes);
  }
  for (const [binding, r2] of Object.entries(others.r2)) {
    count(`R2 ${binding}`, 'puts', r2.puts);
    bytes(`R2 ${binding}`, 'bytes put', r2.putBytes);
    count(`R2 ${binding}`, 'reads (get, head, list)', r2.reads);
  }
  for (const [binding, kv] of Object.entries(others.kv)) {
    count(`KV ${binding}`, 'reads', kv.reads);
    count(`KV ${binding}`, 'writes', kv.writes);
  }
  printTable(
    [
      'store',
      'per visitor',
      'lookup-only',
      'paying',
      `mix ${formatNumber((1 - mix.payingShare) * 100)}/${formatNumber(mix.payingShare * 100)} %`,
    ],
    rows,
    2,
  );
}

const monthly = (visitors: number) =>
  visitors >= 1e6 ? `${formatNumber(visitors / 1e6)} M` : formatNumber(visitors);

/** The limits table; returns the lines under a goal. */
export function printLimits(
  verdicts: readonly Verdict[],
  options: { mix: Mix; peakFactor: number },
): string[] {
  const missed: string[] = [];
  const rows = verdicts.map(({ line, readings }) => {
    const cells = readings.flatMap(({ goal, reading, met }) => {
      if (!met) {
        missed.push(
          `${line.store}: ${line.what} at ${monthly(goal.visitorsPerMonth)}/month: ` +
            `${formatNumber(reading.headroom)}x headroom, goal ${goal.headroom}x`,
        );
      }
      const isRate = line.unit === '/s' && line.demand.kind === 'rate';
      return [
        isRate ? formatAmount(reading.average, line.unit) : '',
        formatAmount(reading.peak, line.unit),
        `${formatNumber(reading.headroom)}x ${met ? '✓' : '✗ UNDER GOAL'}`,
      ];
    });
    const full =
      line.demand.kind === 'storage'
        ? readings.map(({ goal }) => {
            const months = monthsToFull(
              line,
              { visitorsPerMonth: goal.visitorsPerMonth, peakFactor: options.peakFactor },
              options.mix,
            );
            return months === null
              ? null
              : `full in ${formatNumber(months)} months at ${monthly(goal.visitorsPerMonth)}`;
          })
        : [];
    const notes = [line.note, ...full].filter(Boolean).join('; ');
    return [line.store, line.what, formatAmount(line.limit, line.unit), ...cells, notes];
  });
  const header = ['store', 'limit on', 'limit'];
  for (const goal of HEADROOM_GOALS) {
    const at = monthly(goal.visitorsPerMonth);
    header.push(`${at} avg`, `${at} peak`, `headroom (goal ${goal.headroom}x)`);
  }
  header.push('notes');
  printTable(header, rows, 2);
  return missed;
}
