/** A screen laid out in two columns from the desktop width up. */
export interface SplitScreen {
  /** The screen's section, e.g. `.checkout`. */
  screen: string;
  /** Its child that takes a column of its own, e.g. `[data-island=CheckoutPayment]`. */
  side: string;
  /** Which column the side takes: 1 the start (left, right in Arabic), 2 the end. */
  sideColumn: 1 | 2;
}

/** Rows enough for every piece a screen stacks beside its side; unused ones are 0 high. */
const STACKED_ROWS = 8;

/**
 * SPEC.md §9 desktop from 992: the page widens to the top bar's 960 and the screen becomes two
 * columns, one piece (the side: a payment form, a QR code, testimonials) spanning every row of
 * its column while the screen's other pieces stack in the other, in their own order. A grid
 * with one spanning item keeps both columns free of each other's heights: the last row (1fr)
 * takes whatever the side is taller by. The markup stays the phone's, so keyboard and reader
 * order do not change; `:has()` lays a screen out this way only where its side is there, and a
 * browser without `:has()` keeps the phone's column. Columns follow the page's direction, so
 * Arabic mirrors them.
 */
export function splitCss(splits: readonly SplitScreen[]): string {
  const rule = (select: (split: SplitScreen) => string, body: string) =>
    `${splits.map(select).join(',')}{${body}}`;
  return [
    '@media (min-width:992px){',
    `.page:has(${splits.map(({ screen, side }) => `>${screen}>${side}`).join(',')}){max-width:992px}`,
    rule(
      ({ screen, side }) => `${screen}:has(>${side})`,
      `display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);grid-template-rows:repeat(${STACKED_ROWS},auto) 1fr;column-gap:48px;align-items:start`,
    ),
    ...[1, 2].map((column) => {
      const stacked = splits.filter((split) => split.sideColumn !== column);
      return stacked.length === 0
        ? ''
        : `${stacked.map(({ screen, side }) => `${screen}:has(>${side})>*`).join(',')}{grid-column:${column}}`;
    }),
    ...[1, 2].map((column) => {
      const sides = splits.filter((split) => split.sideColumn === column);
      return sides.length === 0
        ? ''
        : `${sides.map(({ screen, side }) => `${screen}>${side}`).join(',')}{grid-column:${column};grid-row:1/-1}`;
    }),
    '}',
  ].join('');
}
