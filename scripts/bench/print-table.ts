/**
 * Prints a plain-text table: names and notes (the first `textColumns` columns and the last) read
 * left to right, numbers line up on the right.
 */
export function printTable(header: string[], rows: string[][], textColumns = 1): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column < textColumns || column === cells.length - 1
          ? cell.padEnd(width)
          : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}
