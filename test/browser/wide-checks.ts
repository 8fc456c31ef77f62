import type { Page } from 'playwright-core';
import type { ProbeWindow } from './layout-checks';

/**
 * The screenshot walk's checks of a wide window and of the words that cost money
 * (every-screen.test.ts, after installProbes):
 * - an empty column: from 768 px wide, a band of the page's content container wider than a
 *   third of the window that holds no text, picture or control over a stretch at least half the
 *   window high within the first screenful, while the container holds content beside it at those
 *   heights. Only what is inside `main.page` counts, so a centred phone column (at most 375 px,
 *   under a third of any window from 768) never fires: its margins are the page's, symmetric by
 *   design, and not an empty column. Half a screen rather than the whole: a side column that ends
 *   under its first card while its neighbour runs on ("the landing's right column is bare below
 *   y≈315") is what a visitor sees as a half-empty page, while two columns ending a few lines
 *   apart are not. The stretch ends where the container's content ends, so a short page's
 *   bottom never counts;
 * - small print: a price, a plan's figures, a renewal or terms line, an error message, a toast
 *   or a field's error set under 12 px (computed font size), found by the markup's classes and
 *   roles (MUST_READ) and by `data-must-read` wherever a screen marks more.
 */

export interface WideFindings {
  emptyColumns: string[];
  smallPrint: string[];
}

export function wideProblems(findings: WideFindings): string[] {
  return [
    ...findings.emptyColumns.map((line) => `empty column: ${line}`),
    ...findings.smallPrint.map((line) => `small print: ${line}`),
  ];
}

/** From this width up a screen has room for two columns; below it a phone's column is right. */
const EMPTY_COLUMN_MIN_WIDTH = 768;
/** The smallest computed font size for money, terms and errors. */
const MUST_READ_MIN_PX = 12;

/**
 * Text a visitor must be able to read before paying or to recover: prices and the plan picker's
 * figures, the offer's price and savings, renewal and terms lines, the charge line above a
 * button, the order summary, errors of fields and forms, and toasts and alerts.
 */
const MUST_READ = [
  '[data-must-read]',
  '[class*="plan-picker__"]',
  '[class*="guide-offer__"]',
  '[class*="order-summary__"]',
  '[class*="receipt__"]',
  '.plan-choice__disclosure',
  '.upsell-charge',
  '.offer-banner',
  '[class*="__error"]',
  '.google-signin__message',
  '.toast',
  '[role="alert"]',
  '[role="status"]',
].join(',');

export const WIDE_OPTIONS = {
  mustRead: MUST_READ,
  minPx: MUST_READ_MIN_PX,
  emptyColumnMinWidth: EMPTY_COLUMN_MIN_WIDTH,
};

export type WideWindow = ProbeWindow & {
  __findSmallPrint(options: typeof WIDE_OPTIONS): string[];
  __findEmptyColumns(): string[];
  __measureWide(options: typeof WIDE_OPTIONS): WideFindings;
};

/** Puts both checks into a freshly loaded page, after installProbes; once per page load. */
async function installWideChecks(page: Page): Promise<void> {
  await page.evaluate(WIDE_CHECKS_SCRIPT);
}

/** installWideChecks's script, for a caller that installs several checks in one call. */
export const WIDE_CHECKS_SCRIPT = `globalThis.__findSmallPrint = ${findSmallPrint}; globalThis.__findEmptyColumns = ${findEmptyColumns}; globalThis.__measureWide = ${measureWide};`;

/** Runs in the page, after installWideChecks: both checks on the page as it is now. */
function measureWide(options: typeof WIDE_OPTIONS): WideFindings {
  const checks = window as unknown as WideWindow;
  return {
    smallPrint: checks.__findSmallPrint(options),
    emptyColumns:
      window.innerWidth >= options.emptyColumnMinWidth ? checks.__findEmptyColumns() : [],
  };
}

/** Both checks on the page as it is now, after installProbes. */
export async function inspectWide(page: Page): Promise<WideFindings> {
  await installWideChecks(page);
  return page.evaluate(
    (options) => (window as unknown as WideWindow).__measureWide(options),
    WIDE_OPTIONS,
  );
}

/** Runs in the page, after installProbes. */
function findSmallPrint(options: { mustRead: string; minPx: number }): string[] {
  const probes = (window as unknown as ProbeWindow).__layoutProbes;
  const found = new Set<string>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!element || text === '' || !element.closest(options.mustRead)) continue;
    if (probes.isHidden(element)) continue;
    const size = Number.parseFloat(getComputedStyle(element).fontSize);
    if (size >= options.minPx) continue;
    const quoted = JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
    found.add(`${quoted} (${probes.describe(element)}) is ${size}px`);
  }
  return [...found];
}

/** Runs in the page, after installProbes: see the module's comment. */
function findEmptyColumns(): string[] {
  const probes = (window as unknown as ProbeWindow).__layoutProbes;
  const container = document.querySelector('main.page');
  if (!container) return [];
  /** What a visitor sees in the container: lines of text, pictures and controls. */
  const contentBoxes = (): DOMRect[] => {
    const found: DOMRect[] = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || (node.textContent ?? '').trim() === '' || probes.isHidden(element)) continue;
      range.selectNodeContents(node);
      found.push(...range.getClientRects());
    }
    // A drawing counts though it is decorative (aria-hidden): the eye sees it all the same.
    const seen = 'img,svg,picture,canvas,video,iframe,input,select,textarea,button,a[href]';
    for (const element of container.querySelectorAll(seen)) {
      if (element.parentElement?.closest('svg')) continue;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      found.push(element.getBoundingClientRect());
    }
    return found.filter((box) => box.width >= 1 && box.height >= 1);
  };
  const s = getComputedStyle(container);
  const outer = container.getBoundingClientRect();
  const left = Math.max(0, outer.left + Number.parseFloat(s.paddingLeft));
  const right = Math.min(window.innerWidth, outer.right - Number.parseFloat(s.paddingRight));
  const top = Math.max(0, outer.top + Number.parseFloat(s.paddingTop));
  const boxes = contentBoxes();
  const bottom = Math.min(window.innerHeight, Math.max(top, ...boxes.map((box) => box.bottom)));
  // A map of where content is, in cells small beside the bands and stretches sought.
  const cell = 16;
  const columns = Math.floor((right - left) / cell);
  const rows = Math.floor((bottom - top) / cell);
  if (columns < 1 || rows < 1) return [];
  const filled = Array.from({ length: rows }, () => new Array<boolean>(columns).fill(false));
  for (const box of boxes) {
    const c0 = Math.max(0, Math.floor((box.left - left) / cell));
    const c1 = Math.min(columns - 1, Math.ceil((box.right - left) / cell) - 1);
    const r0 = Math.max(0, Math.floor((box.top - top) / cell));
    const r1 = Math.min(rows - 1, Math.ceil((box.bottom - top) / cell) - 1);
    for (let r = r0; r <= r1; r += 1) for (let c = c0; c <= c1; c += 1) filled[r]![c] = true;
  }
  const minBand = Math.ceil(window.innerWidth / 3 / cell);
  const minRun = Math.ceil(window.innerHeight / 2 / cell);
  // Per row, counts of filled cells up to each column: a band's emptiness is one subtraction.
  const prefix = filled.map((row) => {
    const counts = [0];
    for (const cellFilled of row) counts.push((counts.at(-1) ?? 0) + (cellFilled ? 1 : 0));
    return counts;
  });
  const bandEmpty = (r: number, from: number, to: number) => prefix[r]![to] === prefix[r]![from];
  const beside = (r: number) => prefix[r]![columns]! > 0;
  let widest: { from: number; to: number; start: number; end: number } | null = null;
  for (let from = 0; from + minBand <= columns; from += 1) {
    for (let to = from + minBand; to <= columns; to += 1) {
      if (widest && to - from <= widest.to - widest.from) continue;
      // Runs of rows with the band empty; one counts when something is beside it in the run.
      let start = -1;
      let besideSeen = false;
      for (let r = 0; r <= rows; r += 1) {
        const empty = r < rows && bandEmpty(r, from, to);
        if (empty) {
          if (start < 0) [start, besideSeen] = [r, false];
          besideSeen ||= beside(r);
          continue;
        }
        if (start >= 0 && besideSeen && r - start >= minRun) widest = { from, to, start, end: r };
        start = -1;
      }
    }
  }
  if (!widest) return [];
  const x = (column: number) => Math.round(left + column * cell);
  const y = (row: number) => Math.round(top + row * cell);
  return [
    `x ${x(widest.from)}…${x(widest.to)} holds nothing from y ${y(widest.start)} to ${y(widest.end)} ` +
      `in a ${window.innerWidth}×${window.innerHeight} window, beside content`,
  ];
}
