/** Plain-text tables for a terminal: one header row, a rule, left-aligned padded columns. */

export type Cell = string | number | null;

export interface Column<R> {
  header: string;
  cell: (row: R) => Cell;
}

/** Longer cells are cut with '…', so one long name cannot push every other column off screen. */
export const MAX_CELL_WIDTH = 40;
const NONE = '-';

export function formatTable<R>(columns: readonly Column<R>[], rows: readonly R[]): string {
  const cells = rows.map((row) => columns.map((column) => cellText(column.cell(row))));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((line) => line[i]?.length ?? 0)),
  );
  const line = (texts: readonly string[]) =>
    texts
      .map((text, i) => text.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((column) => column.header)),
    line(widths.map((width) => '-'.repeat(width))),
    ...cells.map(line),
  ].join('\n');
}

function cellText(cell: Cell): string {
  if (cell === null || cell === '') return NONE;
  // Control characters (a name with a newline or an escape sequence) would break the layout or
  // drive the terminal; data typed by visitors is shown, not obeyed.
  const text = String(cell).replace(/\p{Cc}/gu, ' ');
  return text.length > MAX_CELL_WIDTH ? `${text.slice(0, MAX_CELL_WIDTH - 1)}…` : text;
}
