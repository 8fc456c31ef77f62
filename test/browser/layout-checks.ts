import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ISLAND_ATTR } from '../../islands/protocol';
import { PATIENCE_MS } from './patience';

/**
 * Shared helpers of the visual and accessibility checks (every-screen.test.ts, pixels.test.ts):
 * opening a screen once it is settled, and the in-page measurements behind each check.
 * Functions handed to `page.evaluate` run in Chromium, so they use only browser globals.
 */

/** SPEC.md §9: mobile width 350, tablet from 432, desktop from 992. */
export const RENDER_WIDTHS = [350, 432, 992] as const;
export type RenderWidth = (typeof RENDER_WIDTHS)[number];

/** A phone-, tablet- and laptop-like window height for each width. */
export const VIEWPORT_HEIGHT: Record<RenderWidth, number> = { 350: 740, 432: 900, 992: 768 };

export const SCREENSHOT_DIR = 'test-output/screenshots';

/** Boxes may touch or graze by this much (anti-aliasing, sub-pixel layout) without failing. */
const OVERLAP_TOLERANCE_PX = 2;

/** Animations frozen, so every render is the same picture and boxes have their final place. */
const STILL_CSS =
  '*,*::before,*::after{animation-duration:0s!important;animation-delay:0s!important;' +
  'transition-duration:0s!important;transition-delay:0s!important;scroll-behavior:auto!important}';

/** A visitor's window at one of the widths, with reduced motion requested. */
export async function newRenderContext(
  browser: Browser,
  baseURL: string,
  width: RenderWidth,
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    viewport: { width, height: VIEWPORT_HEIGHT[width] },
    reducedMotion: 'reduce',
  });
}

/**
 * Opens a screen and waits until a visitor would see it finished: the page script has run and
 * marked the document (islands hydrate right after it), fonts and eager images have loaded, and
 * two frames have passed for effects that update after mount. The page's CSP allows inline
 * styles ('unsafe-inline' in style-src), so the injected style that freezes animations applies.
 * After the navigation, one call into the page: each round trip costs the test process and
 * Chromium more than the wait it holds (the screen walk opens 144 renders a run).
 */
export async function openSettledScreen(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  if (!response?.ok()) throw new Error(`${path} answered ${response?.status()}`);
  const waiting = await page.evaluate(settleBootedPage, {
    still: STILL_CSS,
    islandAttribute: ISLAND_ATTR,
    patience: PATIENCE_MS,
  });
  if (waiting.length > 0) throw new Error(`${path}: islands never hydrated: ${waiting.join(', ')}`);
}

/**
 * Runs in the page: waits for the page script's `data-booted` mark, which it sets once every
 * island has committed its hydration, and answers the islands React did not make a root
 * (visitor-steps.ts unhydratedIslands says why both); then freezes animations and waits for
 * fonts, eager images and two frames for effects that update after mount.
 */
async function settleBootedPage({
  still,
  islandAttribute,
  patience,
}: {
  still: string;
  islandAttribute: string;
  patience: number;
}): Promise<string[]> {
  const root = document.documentElement;
  const booted = () => root.dataset.booted === 'yes';
  if (!booted()) {
    await new Promise<void>((done, fail) => {
      const observer = new MutationObserver(() => {
        if (!booted()) return;
        observer.disconnect();
        clearTimeout(timer);
        done();
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        fail(new Error(`the page did not mark itself booted in ${patience} ms`));
      }, patience);
      observer.observe(root, { attributes: true, attributeFilter: ['data-booted'] });
    });
  }
  const waiting = [...document.querySelectorAll(`[${islandAttribute}]`)]
    .filter((island) => !Object.keys(island).some((key) => key.startsWith('__reactContainer')))
    .map((island) => island.getAttribute(islandAttribute) ?? '');
  if (waiting.length > 0) return waiting;
  const style = document.createElement('style');
  style.textContent = still;
  document.head.appendChild(style);
  await document.fonts.ready;
  const eager = [...document.images].filter((img) => img.loading !== 'lazy' && !img.complete);
  // Loaded or failed: a broken image is the image owner's finding, not a reason to hang the
  // check. One that never answers is the test's timeout's.
  await Promise.all(
    eager.map(
      (img) =>
        new Promise((done) => {
          img.addEventListener('load', done);
          img.addEventListener('error', done);
        }),
    ),
  );
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return [];
}

/** Saves a full-page PNG under test-output/screenshots for a reviewer to look at. */
export async function saveScreenshot(page: Page, file: string): Promise<void> {
  const path = `${SCREENSHOT_DIR}/${file}`;
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
}

/**
 * A PNG of the page (whole) or of one element as it is now, for a reviewer, under test-output/screenshots/review/
 * and only with SCREENSHOTS=1 (as the walk's): a test's pictures are for looking at after a
 * change, and encoding them on every run costs the suite more than they tell it.
 */
export async function reviewShot(target: Page | Locator, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  if ('goto' in target) return saveScreenshot(target, `review/${name}.png`);
  const path = `${SCREENSHOT_DIR}/review/${name}.png`;
  mkdirSync(dirname(path), { recursive: true });
  await target.screenshot({ path, animations: 'disabled', caret: 'hide' });
}

export interface LayoutFindings {
  /** Elements that stick out past the window's edges, when the page scrolls sideways. */
  overflow: string[];
  /** Pairs of text boxes from different elements that cover each other. */
  overlaps: string[];
  /** Text that stays under a bar fixed to the bottom even when scrolled to the end. */
  underBottomBar: string[];
}

export function layoutProblems(findings: LayoutFindings): string[] {
  return [
    ...findings.overflow.map((line) => `overflow: ${line}`),
    ...findings.overlaps.map((line) => `overlap: ${line}`),
    ...findings.underBottomBar.map((line) => `under bottom bar: ${line}`),
  ];
}

/**
 * Puts the measurements into the page. Compilers that keep function names (tsx, esbuild's
 * keepNames) wrap inner functions in a `__name` helper the page does not have; a no-op one
 * lets the same functions run whichever tool loaded this file.
 */
export async function installProbes(page: Page): Promise<void> {
  await page.evaluate(PROBES_SCRIPT);
}

/** installProbes's script, for a caller that installs several checks in one call. */
export const PROBES_SCRIPT = `globalThis.__name ??= (target) => target; (${installPageProbes})();`;

/** Runs every layout measurement on the page as it is now. */
export async function inspectLayout(page: Page): Promise<LayoutFindings> {
  await installProbes(page);
  const atTop = await page.evaluate((tolerance) => {
    const probes = (window as unknown as ProbeWindow).__layoutProbes;
    return { overflow: probes.overflow(), overlaps: probes.overlaps(tolerance) };
  }, OVERLAP_TOLERANCE_PX);
  const underBottomBar = await page.evaluate((tolerance) => {
    const probes = (window as unknown as ProbeWindow).__layoutProbes;
    const scroller = document.scrollingElement ?? document.documentElement;
    window.scrollTo(0, scroller.scrollHeight);
    const found = probes.underBottomBar(tolerance);
    window.scrollTo(0, 0);
    return found;
  }, OVERLAP_TOLERANCE_PX);
  return { ...atTop, underBottomBar };
}

/** Only whether the page scrolls sideways now, naming where it starts; after installProbes. */
export function inspectOverflow(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Two frames: a resize lays out, and effects that follow it settle.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return (window as unknown as ProbeWindow).__layoutProbes.overflow();
  });
}

interface LayoutProbes {
  overflow(): string[];
  overlaps(tolerance: number): string[];
  underBottomBar(tolerance: number): string[];
  describe(element: Element): string;
  isHidden(element: Element): boolean;
  focusRings(element: Element): string[];
  ringShown(focused: string[], element: Element): boolean;
}

export type ProbeWindow = Window & { __layoutProbes: LayoutProbes };

/**
 * Installs the measurements on `window.__layoutProbes` (runs in the page). Kept as one function
 * so the page receives it whole; helpers are arrow functions in its scope.
 */
function installPageProbes(): void {
  interface Box {
    left: number;
    top: number;
    right: number;
    bottom: number;
  }
  interface TextBox extends Box {
    element: Element;
    text: string;
  }

  const root = document.documentElement;
  /** A computed style is live: one object per element serves every later measurement. */
  const styles = new WeakMap<Element, CSSStyleDeclaration>();
  const style = (element: Element) => {
    let computed = styles.get(element);
    if (!computed) {
      computed = getComputedStyle(element);
      styles.set(element, computed);
    }
    return computed;
  };
  /**
   * What holds for one synchronous measurement, when nothing is laid out anew between two
   * reads: whether an element is hidden or clipped away. Forgotten at its end, so a resize or a
   * focus change before the next measurement is always seen.
   */
  let within: { hidden: Map<Element, boolean>; clipped: Map<Element, boolean> } | null = null;
  const memo = () => {
    if (!within) {
      within = { hidden: new Map(), clipped: new Map() };
      queueMicrotask(() => {
        within = null;
      });
    }
    return within;
  };

  /** A short CSS path a person can find in the markup: up to four levels, stopping at an id. */
  const describe = (element: Element): string => {
    const parts: string[] = [];
    let current: Element | null = element;
    while (current && current !== document.body && current !== root && parts.length < 4) {
      let part = current.localName;
      if (current.id) part += `#${current.id}`;
      const classes = [...current.classList].slice(0, 2);
      if (classes.length > 0) part += `.${classes.join('.')}`;
      parts.unshift(part);
      if (current.id) break;
      current = current.parentElement;
    }
    return parts.join(' > ') || element.localName;
  };

  const quote = (text: string) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return JSON.stringify(flat.length > 40 ? `${flat.slice(0, 39)}…` : flat);
  };

  /** Screen-reader-only text is clipped to nothing on purpose, by the element or above it. */
  const isClippedAway = (element: Element | null): boolean => {
    if (!element || element === root) return false;
    const { clipped } = memo();
    const known = clipped.get(element);
    if (known !== undefined) return known;
    const s = style(element);
    const away =
      (s.clip !== 'auto' && s.clip !== '') ||
      /^inset\((50|100)%/.test(s.clipPath) ||
      /^circle\(0/.test(s.clipPath) ||
      isClippedAway(element.parentElement);
    clipped.set(element, away);
    return away;
  };

  /** Not seen by a visitor: hidden, transparent, screen-reader-only, or outside the page. */
  const isHidden = (element: Element): boolean => {
    const { hidden } = memo();
    const known = hidden.get(element);
    if (known !== undefined) return known;
    const found =
      element.closest('[aria-hidden="true"],[inert],template,noscript,script,style,select') !==
        null ||
      // Also false inside a closed <details> (content-visibility: hidden), whose text still
      // reports boxes piled on top of each other.
      !element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ||
      isClippedAway(element);
    hidden.set(element, found);
    return found;
  };

  /**
   * Toasts and overlays float over the page by design; they are checked where they open. So does
   * a bar stuck to the bottom (the checkout's pay bar on a phone) over what scrolls under it;
   * scrolled to the end, nothing may stay under it (underBottomBar).
   */
  const isInFixedLayer = (element: Element): boolean => {
    for (let e: Element | null = element; e && e !== root; e = e.parentElement) {
      const { position, bottom } = style(e);
      if (position === 'fixed' || (position === 'sticky' && bottom !== 'auto')) return true;
    }
    return false;
  };

  const intersect = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });

  /**
   * The part of a box its ancestors let show: every ancestor whose overflow is not visible
   * clips it, except that an absolutely positioned box escapes the ancestors between it and
   * its containing block. The page itself (html, body) is the viewport and does not clip.
   */
  const visiblePart = (element: Element, box: Box): Box => {
    let shown = box;
    let escaping = false;
    for (let e: Element | null = element; e && e !== document.body && e !== root; ) {
      const s = style(e);
      const containing = s.position !== 'static' || s.transform !== 'none';
      if (escaping && containing) escaping = false;
      if (!escaping && (s.overflowX !== 'visible' || s.overflowY !== 'visible')) {
        const r = e.getBoundingClientRect();
        const inner = {
          left: r.left + e.clientLeft,
          top: r.top + e.clientTop,
          right: r.left + e.clientLeft + e.clientWidth,
          bottom: r.top + e.clientTop + e.clientHeight,
        };
        shown = intersect(shown, {
          left: s.overflowX === 'visible' ? shown.left : inner.left,
          right: s.overflowX === 'visible' ? shown.right : inner.right,
          top: s.overflowY === 'visible' ? shown.top : inner.top,
          bottom: s.overflowY === 'visible' ? shown.bottom : inner.bottom,
        });
      }
      if (s.position === 'absolute') escaping = true;
      e = e.parentElement;
    }
    return shown;
  };

  const hasArea = (box: Box, min = 1) => box.right - box.left >= min && box.bottom - box.top >= min;

  /**
   * One box per line of every visible text node (Range.getClientRects), clipped to what its
   * ancestors show. A line's box is the font's content area, taller than the line when the
   * line-height is tight; it is cut to the line (but never below the font size) so the lines
   * of a tightly set label do not count as covering each other.
   */
  const textBoxes = (): TextBox[] => {
    const boxes: TextBox[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const hidden = new Map<Element, boolean>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const element = node.parentElement;
      if (!element || text.trim() === '') continue;
      if (!hidden.has(element)) hidden.set(element, isHidden(element) || isInFixedLayer(element));
      if (hidden.get(element)) continue;
      const s = style(element);
      const fontSize = Number.parseFloat(s.fontSize);
      const lineHeight = s.lineHeight === 'normal' ? Number.NaN : Number.parseFloat(s.lineHeight);
      const height = Number.isNaN(lineHeight)
        ? Number.POSITIVE_INFINITY
        : Math.max(lineHeight, fontSize);
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        const trim = Math.max(0, (rect.height - height) / 2);
        const line = {
          left: rect.left,
          right: rect.right,
          top: rect.top + trim,
          bottom: rect.bottom - trim,
        };
        const shown = visiblePart(element, line);
        if (hasArea(shown)) boxes.push({ ...shown, element, text });
      }
    }
    return boxes;
  };

  const overlaps = (tolerance: number): string[] => {
    const boxes = textBoxes();
    const reported = new Set<string>();
    const found: string[] = [];
    for (const [i, a] of boxes.entries()) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const b = boxes[j]!;
        if (a.element === b.element) continue;
        // The common part's sides, without a box per pair: most pairs are far apart.
        const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        if (width <= tolerance) continue;
        const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (height <= tolerance) continue;
        const pair = `${quote(a.text)} (${describe(a.element)}) overlaps ${quote(b.text)} (${describe(b.element)})`;
        if (reported.has(pair)) continue;
        reported.add(pair);
        found.push(`${pair} by ${Math.round(width)}×${Math.round(height)}px`);
      }
    }
    return found;
  };

  /**
   * Sideways scrolling means something is wider than the window. The culprits named are the
   * outermost visible elements past an edge (left edge too: right-to-left pages overflow left)
   * whose own parent stays inside, i.e. where the overflow starts.
   */
  const overflow = (): string[] => {
    const width = window.innerWidth;
    const scrollWidth = (document.scrollingElement ?? root).scrollWidth;
    if (scrollWidth <= width) return [];
    const sticksOut = (element: Element) => {
      const r = element.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return false;
      const shown = visiblePart(element, r);
      return hasArea(shown, 0.5) && (shown.right > width + 0.5 || shown.left < -0.5);
    };
    const culprits = [...document.body.querySelectorAll('*')].filter(
      (element) =>
        !isHidden(element) &&
        sticksOut(element) &&
        !(
          element.parentElement &&
          element.parentElement !== document.body &&
          sticksOut(element.parentElement)
        ),
    );
    const named = culprits.slice(0, 10).map((element) => {
      const r = element.getBoundingClientRect();
      return `${describe(element)} spans x ${Math.round(r.left)}…${Math.round(r.right)}`;
    });
    const summary = `page is ${scrollWidth}px wide in a ${width}px window`;
    return named.length > 0 ? named.map((line) => `${summary}: ${line}`) : [summary];
  };

  /**
   * SPEC.md §2: a screen with a bottom button gets 88px of bottom padding so that, scrolled to
   * the end, nothing stays hidden under the button. Bars are fixed or sticky elements resting
   * on the bottom edge; status and alert areas (the toast) are overlays by design.
   */
  const underBottomBar = (tolerance: number): string[] => {
    const height = window.innerHeight;
    const bars = [...document.body.querySelectorAll('*')].filter((element) => {
      const position = style(element).position;
      if (position !== 'fixed' && position !== 'sticky') return false;
      if (element.closest('[role="status"],[role="alert"],[aria-live]')) return false;
      const r = element.getBoundingClientRect();
      return !isHidden(element) && hasArea(r) && r.bottom >= height - 2 && r.top > height / 2;
    });
    const found: string[] = [];
    const boxes = bars.length > 0 ? textBoxes() : [];
    for (const bar of bars) {
      const area = bar.getBoundingClientRect();
      for (const box of boxes) {
        if (bar.contains(box.element)) continue;
        const common = intersect(box, area);
        if (common.right - common.left > tolerance && common.bottom - common.top > tolerance)
          found.push(`${quote(box.text)} (${describe(box.element)}) under ${describe(bar)}`);
      }
    }
    return [...new Set(found)];
  };

  /**
   * The rings an element and its two nearest ancestors show right now. A same-origin frame with
   * focus inside (a card provider's fields) shows its ring on the field inside it.
   */
  const focusRings = (element: Element): string[] => {
    const rings: string[] = [];
    let current: Element | null = element;
    if (element instanceof HTMLIFrameElement) {
      const inner = element.contentDocument?.activeElement;
      if (inner && inner !== element.contentDocument?.body) current = inner;
    }
    for (let level = 0; level < 3 && current; level += 1) {
      const s = style(current);
      const transparent = /rgba\([^)]*,\s*0\)$|transparent/.test(s.outlineColor);
      const outline =
        s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0 && !transparent
          ? `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`
          : 'none';
      rings.push(`${outline}|${s.boxShadow}`);
      current = current.parentElement;
    }
    return rings;
  };

  /**
   * Whether the rings recorded while the element had focus showed it: an outline on the
   * element itself, or an outline or box-shadow (on it or an ancestor) that is gone unfocused.
   */
  const ringShown = (focused: string[], element: Element): boolean => {
    const ownOutline = focused[0]?.split('|')[0] ?? 'none';
    if (ownOutline !== 'none') return true;
    const unfocused = focusRings(element);
    return focused.some(
      (ring, level) => ring !== unfocused[level] && ring.split('|').some((part) => part !== 'none'),
    );
  };

  (window as unknown as ProbeWindow).__layoutProbes = {
    overflow,
    overlaps,
    underBottomBar,
    describe,
    isHidden,
    focusRings,
    ringShown,
  };
}

export interface KeyboardWalk {
  /** Visible, enabled interactive elements that no Tab press reached. */
  unreachable: string[];
  /** Elements that took focus without a visible focus indicator. */
  focusInvisible: string[];
  /** Every element focused, in Tab order. */
  order: string[];
}

/**
 * Tabs through the page from the top until focus leaves the document or comes back round, and
 * compares what was focused with the visible interactive elements. Focus counts as visible when
 * the focused element has an outline (not transparent), or a box-shadow it lacks unfocused, or
 * when an ancestor (two levels up, a :focus-within ring) gains an outline or box-shadow.
 */
export async function walkKeyboard(page: Page): Promise<KeyboardWalk> {
  await installProbes(page);
  const candidates = await page.evaluate(startKeyboardWalk);
  const limit = candidates * 2 + 10;
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    const done = await page.evaluate(recordFocusStep);
    if (done) break;
  }
  return page.evaluate(finishKeyboardWalk);
}

interface WalkState {
  candidates: Element[];
  seen: Element[];
  focused: Map<Element, string[]>;
  invisible: Set<Element>;
  previous: Element | null;
  repeats: number;
}

type WalkWindow = ProbeWindow & { __keyboardWalk: WalkState };

/** Marks the start of the page as the point Tab moves on from; counts the candidates. */
function startKeyboardWalk(): number {
  const probes = (window as unknown as ProbeWindow).__layoutProbes;
  const interactive =
    'a[href],area[href],button,input:not([type="hidden"]),select,textarea,summary,iframe,[tabindex],[contenteditable="true"],[contenteditable=""]';
  const candidates = [...document.querySelectorAll(interactive)].filter((element) => {
    const tabIndex = element.getAttribute('tabindex');
    if (tabIndex !== null && Number.parseInt(tabIndex, 10) < 0) return false;
    if (element.matches(':disabled')) return false;
    const r = element.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 && !probes.isHidden(element);
  });
  (window as unknown as WalkWindow).__keyboardWalk = {
    candidates,
    seen: [],
    focused: new Map(),
    invisible: new Set(),
    previous: null,
    repeats: 0,
  };
  (document.activeElement as HTMLElement | null)?.blur();
  window.scrollTo(0, 0);
  // Focusing a first element (then dropping it) sets the sequential focus navigation starting
  // point to the top of the page; a plain blur would leave it where focus was.
  const start = document.createElement('span');
  start.tabIndex = -1;
  document.body.insertBefore(start, document.body.firstChild);
  start.focus();
  start.addEventListener('blur', () => start.remove(), { once: true });
  return candidates.length;
}

/**
 * After one Tab press: settles whether the element left behind showed a focus ring, records
 * the newly focused one. Returns true once focus has left the page or come back to the first.
 */
function recordFocusStep(): boolean {
  const probes = (window as unknown as ProbeWindow).__layoutProbes;
  const walk = (window as unknown as WalkWindow).__keyboardWalk;
  const active = document.activeElement;
  const left = walk.previous;
  if (left && left !== active && !probes.ringShown(walk.focused.get(left) ?? [], left))
    walk.invisible.add(left);
  if (!active || active === document.body || active === document.documentElement) {
    walk.previous = null;
    return walk.seen.length > 0;
  }
  if (active === walk.previous) {
    // Focus inside an iframe keeps the iframe active; a trap keeps one element active.
    walk.repeats += 1;
    return walk.repeats > 40;
  }
  walk.repeats = 0;
  if (walk.seen[0] === active) return true;
  if (!walk.seen.includes(active)) walk.seen.push(active);
  walk.focused.set(active, probes.focusRings(active));
  walk.previous = active;
  return false;
}

function finishKeyboardWalk(): KeyboardWalk {
  const probes = (window as unknown as ProbeWindow).__layoutProbes;
  const walk = (window as unknown as WalkWindow).__keyboardWalk;
  const last = walk.previous;
  if (last) {
    (last as HTMLElement).blur();
    if (!probes.ringShown(walk.focused.get(last) ?? [], last)) walk.invisible.add(last);
  }
  const reached = (element: Element) => {
    if (walk.seen.includes(element)) return true;
    // Arrow keys move within a radio group; Tab stops at one radio of it.
    if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
      return walk.seen.some(
        (other) =>
          other instanceof HTMLInputElement &&
          other.type === 'radio' &&
          other.name === element.name &&
          other.form === element.form,
      );
    }
    return false;
  };
  const label = (element: Element) => {
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
    return text ? `${probes.describe(element)} "${text}"` : probes.describe(element);
  };
  return {
    unreachable: walk.candidates.filter((element) => !reached(element)).map(label),
    focusInvisible: walk.seen.filter((element) => walk.invisible.has(element)).map(label),
    order: walk.seen.map(label),
  };
}
