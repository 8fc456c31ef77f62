import type { Page } from 'playwright-core';
import { isPaywallScreen } from '../../shared/screens';

/**
 * The walk's check of the wide layout (SPEC.md §9, desktop from 992; the screens of
 * screens/plans/styles/wide.ts, sign-up and the landings from a tablet's 768), at each width of
 * the walk's loads (every-screen.test.ts): on a wide window the key screens put one piece beside
 * the rest, each a column of the page, mirrored in a right-to-left page, while a phone keeps the
 * one column of SPEC.md §2, at most 343 px wide. That no column is left bare is wide-checks.ts's.
 */

/** A screen's piece of its main column and the piece that takes the other column. */
export const SPLITS: Readonly<Record<string, readonly [main: string, side: string]>> = {
  one_pager: ['.landing__pitch', '.landing__aside'],
  one_pager_l2: ['.landing__pitch', '.landing__aside'],
  signup: ['[data-island=SignupForm]', '.trust-labels'],
  signup_testim: ['[data-island=SignupForm]', '.signup__testimonials'],
  checkout_v3_tr: ['[data-island=PlanChoice]', '[data-island=CheckoutPayment]'],
  checkout_h3_pp_braintree: ['[data-island=PlanChoice]', '[data-island=CheckoutPayment]'],
  upsell_an_private: ['[data-island=PlanChoice]', '[data-island=UpsellPurchase]'],
  upsell_guide: ['h1', '.guide-offer'],
  success: ['[data-island=DownloadApp]', '.success__aside'],
};

/**
 * The checkouts' columns start at the desktop's 992; the other screens' at a tablet's 768,
 * where a landing stands only its picture beside the pitch (the rest of its aside under both,
 * the walk's empty-column check sees to the balance), so its whole aside is beside it from 992.
 */
const splitFrom = (screen: string) =>
  isPaywallScreen(screen) || screen.startsWith('one_pager') ? 992 : 768;

/** Below this a window is a phone's, whose single column the pieces share one above the other. */
const PHONE_MAX_WIDTH = 432;
/** SPEC.md §9: a phone's content column. */
const PHONE_COLUMN_PX = 343;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}

export interface SplitSeen {
  main: Box;
  side: Box;
  viewport: number;
  /** The document's width: more than the window is a sideways scroll. */
  scrollWidth: number;
}

export type SplitWindow = Window & {
  __readSplit(pieces: readonly [main: string, side: string]): SplitSeen | string;
};

/** Puts the measurement into a freshly loaded page, for the walk's one call per width. */
export const SPLIT_CHECKS_SCRIPT = `globalThis.__readSplit = ${readSplit};`;

/** The two pieces' boxes as the page lays them out now, or what is missing. */
export function measureSplit(page: Page, main: string, side: string): Promise<SplitSeen | string> {
  return page.evaluate(readSplit, [main, side] as const);
}

/** Runs in the page. */
function readSplit([main, side]: readonly [main: string, side: string]): SplitSeen | string {
  const box = (selector: string) => {
    const element = document.querySelector(`main.page > .screen > ${selector}`);
    if (!element) return null;
    const { left, right, top, bottom, width } = element.getBoundingClientRect();
    return { left, right, top, bottom, width };
  };
  const [mainBox, sideBox] = [box(main), box(side)];
  if (!mainBox || !sideBox) return `no ${mainBox ? side : main}`;
  const { clientWidth, scrollWidth } = document.documentElement;
  return { main: mainBox, side: sideBox, viewport: clientWidth, scrollWidth };
}

/**
 * Side by side: the side in the end column (the left one in a right-to-left page), beginning
 * beside the main piece, not below it; each a column of the page, not a phone column: over a
 * third of the window each (and of the page's 960 on the widest window).
 */
export function sideBySideProblems(seen: SplitSeen, rtl: boolean): string[] {
  const found: string[] = [];
  const beside = rtl ? seen.side.right <= seen.main.left : seen.side.left >= seen.main.right;
  if (!beside)
    found.push(
      `the side (x ${Math.round(seen.side.left)}…${Math.round(seen.side.right)}) is not beside the main piece (x ${Math.round(seen.main.left)}…${Math.round(seen.main.right)})`,
    );
  if (seen.side.top >= seen.main.bottom)
    found.push(`the side begins at y ${seen.side.top}, below the main piece's end`);
  const page = Math.min(seen.viewport, 992);
  for (const [name, box] of [
    ['main piece', seen.main],
    ['side', seen.side],
  ] as const) {
    if (box.width / page <= 0.33)
      found.push(`the ${name} is ${Math.round(box.width)}px wide, not over a third of ${page}`);
  }
  if (seen.scrollWidth !== seen.viewport)
    found.push(`the page is ${seen.scrollWidth}px wide in a ${seen.viewport}px window`);
  return found;
}

/** One above the other in the phone's column, each at most 343 px wide. */
function stackedProblems(seen: SplitSeen): string[] {
  const [first, second] =
    seen.main.top < seen.side.top ? [seen.main, seen.side] : [seen.side, seen.main];
  const found: string[] = [];
  if (second.top < first.bottom)
    found.push('the main piece and the side are not one above the other');
  for (const [name, box] of [
    ['main piece', seen.main],
    ['side', seen.side],
  ] as const) {
    if (box.width > PHONE_COLUMN_PX)
      found.push(`the ${name} is ${Math.round(box.width)}px wide in a phone's column`);
  }
  if (seen.scrollWidth !== seen.viewport)
    found.push(`the page is ${seen.scrollWidth}px wide in a ${seen.viewport}px window`);
  return found;
}

/** The pieces the walk measures on a screen at a width, if any: see splitProblems. */
export function splitPieces(screen: string, width: number): readonly [string, string] | undefined {
  const pieces = SPLITS[screen];
  if (!pieces || (width >= PHONE_MAX_WIDTH && width < splitFrom(screen))) return undefined;
  return pieces;
}

/**
 * The split's problems at a width, from the pieces splitPieces named: side by side from the
 * screen's split width, stacked on a phone, nothing in between (a tablet upright may hold
 * either).
 */
export function splitProblems(seen: SplitSeen | string, width: number, rtl: boolean): string[] {
  if (typeof seen === 'string') return [`split: ${seen}`];
  const found = width < PHONE_MAX_WIDTH ? stackedProblems(seen) : sideBySideProblems(seen, rtl);
  // The mirrored side on a laptop is held to a third of the whole window, not only of the page.
  if (rtl && width === 1280 && seen.side.width / seen.viewport <= 0.33)
    found.push(`the side is ${Math.round(seen.side.width)}px wide, not over a third of the window`);
  return found.map((line) => `split: ${line}`);
}
