import type { ReactNode } from 'react';

/**
 * A table's box that scrolls sideways on a narrow screen, so the page itself never does. A box
 * that scrolls must be reachable by keyboard to scroll it (axe's scrollable-region-focusable):
 * the table has nothing focusable of its own.
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone.
    <section className="table-scroll" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </section>
  );
}
