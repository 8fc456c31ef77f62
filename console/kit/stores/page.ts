import {
  type ConsoleArea,
  type ConsolePage,
  consolePageOf,
  consolePath,
  pageOfOldFragment,
} from '../../../shared/console-api/pages';
import { atom } from './atom';

const OVERVIEW: ConsolePage = { area: 'overview', id: null };

/**
 * The page the console shows: the one its address names (shared/console-api/pages.ts). The
 * worker answers the shell only at a page's address, so an address that names none is the
 * Overview.
 */
export const $page = atom<ConsolePage>(OVERVIEW);

/**
 * Reads the page from the address, and follows the browser's back and forward from now on. An
 * address of the one-page console (`/console#traffic`) is replaced by its page's own.
 */
export function followAddress(): void {
  const old =
    location.pathname.replace(/\/$/, '') === '/console' ? pageOfOldFragment(location.hash) : null;
  if (old) history.replaceState(null, '', `${consolePath(old.area, old.id)}${location.search}`);
  $page.set(consolePageOf(location.pathname) ?? OVERVIEW);
  window.addEventListener('popstate', () =>
    $page.set(consolePageOf(location.pathname) ?? OVERVIEW),
  );
}

/**
 * Opens a page as a link does: a new entry in the browser's history, the window at its top, and
 * once it is drawn, focus on `focusId` (the page's heading unless said, nowhere for null: a
 * picker that changes the page keeps it), so a screen reader says where the marketer is now. The
 * same page again only moves focus.
 */
export function openPage(
  area: ConsoleArea,
  id: string | null = null,
  focusId?: string | null,
): void {
  const href = consolePath(area, id);
  const current = $page.get();
  if (current.area !== area || current.id !== id) {
    history.pushState(null, '', href);
    $page.set({ area, id });
    if (focusId !== null) window.scrollTo(0, 0);
  }
  if (focusId === null) return;
  const opening = ++openings;
  const from = document.activeElement;
  // React draws the new page in the frame after the store changed, and a page opened while the
  // live config still loads is drawn once it is in, however long that takes on a busy machine:
  // focus waits for the page to be drawn, not for a number of frames, unless the marketer has
  // moved it meanwhile (to another control: the page drawn drops the focus of a control it
  // removes to the body) or opened another page.
  const moved = () =>
    document.activeElement !== from &&
    document.activeElement !== null &&
    document.activeElement !== document.body;
  const settled = () => opening !== openings || moved() || focusOnPage(href, focusId);
  requestAnimationFrame(() => {
    if (settled()) return;
    const drawn = new MutationObserver(() => {
      if (settled()) drawn.disconnect();
    });
    drawn.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-page'],
    });
  });
}

/** Pages opened so far: a page's wait for focus ends when another is opened. */
let openings = 0;

/**
 * Focus on `focusId`, or the page's heading, once the page at `href` is the one drawn; whether
 * it took it. Until React has drawn it the old page's heading is still there, and a focus put on
 * it falls to the page's body as the old page goes: on a busy machine that took more frames than
 * one.
 */
function focusOnPage(href: string, focusId: string | undefined): boolean {
  if (document.querySelector<HTMLElement>('.console-main')?.dataset.page !== href) return false;
  const target = focusId
    ? document.getElementById(focusId)
    : document.querySelector<HTMLElement>('.console-main h2');
  if (!target) return false;
  if (focusId) {
    target.focus();
    return true;
  }
  // The heading of a page opened at its top: focus it where it is, without a scroll that would
  // move what the marketer is about to press.
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
  return true;
}

/** Whether a click on a link is one the page itself follows: a plain left click, no new tab. */
export function isPlainClick(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
