/** Screens laid out in two columns from the desktop width up, and the piece each puts aside. */
export interface SplitScreens {
  /** The screens' sections, e.g. `.checkout`. */
  screens: readonly string[];
  /** The child of such a section that takes the end column, e.g. `[data-island=CheckoutPayment]`. */
  sides: readonly string[];
  /**
   * The window width the columns start at: the desktop's 992 (SPEC.md §9) unless the screens'
   * pieces fit a tablet's 768, two columns of about a phone's width.
   */
  from?: 768 | 992;
}

/**
 * Rows enough for every piece a screen stacks beside its side (a checkout stacks 9), with room
 * for more; unused ones are 0 high. A piece past them would sit below a gap where the side is
 * taller.
 */
const STACKED_ROWS = 16;

/** One selector as it is, several as one `:is()`. */
function anyOf(selectors: readonly string[]): string {
  return selectors.length === 1 ? `${selectors[0]}` : `:is(${selectors.join(',')})`;
}

/**
 * SPEC.md §9 desktop from 992 (or from 768): the page widens to the top bar's 960 and the screen becomes two
 * columns, its side (a payment form, a QR code, testimonials) spanning every row of the end
 * column while the screen's other pieces stack in the start column, in their own order. A grid
 * with one spanning item keeps both columns free of each other's heights: the last row (1fr)
 * takes whatever the side is taller by. The markup stays the phone's, so keyboard and reader
 * order do not change; `:has()` lays a screen out this way only where its side is there (a
 * screen has one of the sides at most), and a browser without `:has()` keeps the phone's
 * column. Columns follow the page's direction, so Arabic mirrors them.
 */
export function splitCss({ screens, sides, from = 992 }: SplitScreens): string {
  const screen = anyOf(screens);
  const side = anyOf(sides);
  // Two tablet columns keep a phone's 32 between them; a desktop's get 48.
  const wider =
    from < 992 ? `@media (min-width:992px){${screen}:has(>${side}){column-gap:48px}}` : '';
  return (
    `@media (min-width:${from}px){` +
    `.page:has(>${screen}>${side}){max-width:992px}` +
    `${screen}:has(>${side}){display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);` +
    `grid-template-rows:repeat(${STACKED_ROWS},auto) 1fr;column-gap:${from < 992 ? 32 : 48}px;align-items:start}` +
    `${screen}:has(>${side})>*{grid-column:1}` +
    `${screen}>${side}{grid-column:2;grid-row:1/-1}}${wider}`
  );
}
