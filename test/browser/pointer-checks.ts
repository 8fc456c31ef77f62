import type { ElementHandle, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Checks that a mouse or a finger reaches a control where the eye sees it: at the middle of the
 * control's first box (the point Playwright itself clicks, and where a person aims), where the
 * page shows it or else scrolled to the window's middle, the element the browser hits is the
 * control or inside it, not a card, panel or dialog drawn over it. A
 * control of a wrapped line is aimed at on its first line. Functions handed to `page.evaluate` run
 * in Chromium, so they use only browser globals.
 */

/** What a person can act on with a pointer. */
const CONTROLS = 'button, a[href], input, select, textarea, summary';

/** Where to aim at a control, and what the browser hits there (null: the control itself). */
interface Aim {
  x: number;
  y: number;
  covered: string | null;
}

interface AimProbes {
  aimAt(control: Element): Aim;
  describe(element: Element | null): string;
}

type AimWindow = Window & { __aim: AimProbes };

/**
 * Installs the probes on `window.__aim` (runs in the page). Kept as one function so the page
 * receives it whole; helpers are arrow functions in its scope.
 */
function installPageAim(): void {
  const describe = (element: Element | null): string => {
    if (!element) return 'nothing';
    const classes = element.getAttribute('class');
    const name =
      element.getAttribute('aria-label') ??
      (element as HTMLInputElement).labels?.[0]?.textContent ??
      element.textContent ??
      '';
    return `${element.tagName.toLowerCase()}${classes ? `.${classes.split(' ').join('.')}` : ''} "${name.trim().slice(0, 60)}"`;
  };
  const hitAt = (control: Element): Aim => {
    const box = control.getClientRects()[0] ?? control.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    const reached = hit !== null && (hit === control || control.contains(hit));
    return { x, y, covered: reached ? null : describe(hit) };
  };
  // Where the page shows it now, if a pointer reaches it there; else scrolled to the window's
  // middle, past a sticky bar, and aimed at again. A scroll dirties the page's layout for the
  // next hit test: aimed in place, a page's hundred controls cost a few scrolls, not a hundred.
  const aimAt = (control: Element): Aim => {
    const inPlace = hitAt(control);
    if (inPlace.covered === null) return inPlace;
    control.scrollIntoView({ block: 'center', inline: 'nearest' });
    return hitAt(control);
  };
  (window as unknown as AimWindow).__aim = { aimAt, describe };
}

/** Pages whose current document has the probes: asking the page again costs a round trip a click. */
const aimedPages = new WeakSet<Page>();

/**
 * Puts the probes into the page, once per document. Compilers that keep function names (tsx,
 * esbuild's keepNames) wrap inner functions in a `__name` helper the page does not have; a no-op
 * one lets the same functions run whichever tool loaded this file.
 */
async function installAim(page: Page): Promise<void> {
  if (aimedPages.has(page)) return;
  await page.evaluate('globalThis.__name ??= (target) => target');
  await page.evaluate(installPageAim);
  if (!aimedPages.has(page)) {
    aimedPages.add(page);
    // A new document has no probes; a hash change keeps them, and reinstalling is harmless.
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) aimedPages.delete(page);
    });
  }
}

/**
 * Every control under `root` a person can see now whose middle another element covers, as
 * "control — covered by element" lines (none expected).
 */
export async function coveredControls(root: Locator): Promise<string[]> {
  await installAim(root.page());
  return root.evaluate((container, selector) => {
    const probes = (window as unknown as AimWindow).__aim;
    const found: string[] = [];
    for (const control of container.querySelectorAll(selector)) {
      if (!control.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }))
        continue;
      const { covered } = probes.aimAt(control);
      if (covered) found.push(`${probes.describe(control)} — covered by ${covered}`);
    }
    return found;
  }, CONTROLS);
}

/**
 * The visible controls under `root` matching `selector`, in document order, as handles: each
 * stays the same element while clicks add or move others around it.
 */
export async function visibleControls(
  root: Locator,
  selector: string,
): Promise<ElementHandle<HTMLElement>[]> {
  const controls = root.locator(selector);
  // Playwright's isVisible for every control in one round trip rather than one each: drawn, not
  // hidden by style, and with a box of some size.
  const shown = await controls.evaluateAll((all) =>
    all.map((control) => {
      const box = control.getBoundingClientRect();
      return (
        control.checkVisibility({ visibilityProperty: true }) && box.width > 0 && box.height > 0
      );
    }),
  );
  const all = (await controls.elementHandles()) as ElementHandle<HTMLElement>[];
  return all.filter((_, index) => shown[index]);
}

/** Where to aim at a control, and its name where something covers it. */
interface NamedAim extends Aim {
  name: string;
}

/** Aims at `control` and names it in the same round trip (runs in the page). */
function aimAtControl(control: Element): NamedAim {
  const probes = (window as unknown as AimWindow).__aim;
  const aim = probes.aimAt(control);
  return { ...aim, name: aim.covered ? probes.describe(control) : '' };
}

/** Scrolls `control` into view and returns where to aim, failing when it is covered there. */
async function reach(page: Page, control: Locator): Promise<Aim> {
  await installAim(page);
  const aim = await control.evaluate(aimAtControl);
  if (aim.covered) expect.fail(`${aim.name} is covered by ${aim.covered}`);
  return aim;
}

/** Pages held in a finger's context (hasTouch): `press` taps there rather than clicks. */
const fingerPages = new WeakSet<Page>();

/** From now on `press` on `page` is a finger's tap. */
export function pressWithFinger(page: Page): void {
  fingerPages.add(page);
}

/**
 * Presses `control` at its middle, once nothing covers it there: with the mouse, or with a finger
 * on a page given to `pressWithFinger`.
 */
export async function press(page: Page, control: Locator): Promise<void> {
  const { x, y } = await reach(page, control);
  if (fingerPages.has(page)) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}
