import type { ElementHandle, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Checks that a mouse or a finger reaches a control where the eye sees it: at the middle of the
 * control's first box (the point Playwright itself clicks, and where a person aims), the element
 * the browser hits is the control or inside it, not a card, panel or dialog drawn over it. A
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
  const aimAt = (control: Element): Aim => {
    control.scrollIntoView({ block: 'center', inline: 'nearest' });
    const box = control.getClientRects()[0] ?? control.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    const reached = hit !== null && (hit === control || control.contains(hit));
    return { x, y, covered: reached ? null : describe(hit) };
  };
  (window as unknown as AimWindow).__aim = { aimAt, describe };
}

/**
 * Puts the probes into the page. Compilers that keep function names (tsx, esbuild's keepNames)
 * wrap inner functions in a `__name` helper the page does not have; a no-op one lets the same
 * functions run whichever tool loaded this file.
 */
async function installAim(page: Page): Promise<void> {
  if (await page.evaluate('Boolean(globalThis.__aim)')) return;
  await page.evaluate('globalThis.__name ??= (target) => target');
  await page.evaluate(installPageAim);
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
  const all = (await root.locator(selector).elementHandles()) as ElementHandle<HTMLElement>[];
  const visible: ElementHandle<HTMLElement>[] = [];
  for (const control of all) if (await control.isVisible()) visible.push(control);
  return visible;
}

type Control = Locator | ElementHandle<HTMLElement>;

/** Scrolls `control` into view and returns the point to aim at, failing when it is covered. */
async function reach(page: Page, control: Control): Promise<{ x: number; y: number }> {
  await installAim(page);
  const element = 'elementHandle' in control ? await control.elementHandle() : control;
  if (!element) throw new Error('no such control');
  const aim = await element.evaluate((element) =>
    (window as unknown as AimWindow).__aim.aimAt(element),
  );
  if (aim.covered) {
    const name = await element.evaluate((element) =>
      (window as unknown as AimWindow).__aim.describe(element),
    );
    expect.fail(`${name} is covered by ${aim.covered}`);
  }
  return aim;
}

/** Clicks `control` with the mouse at its middle, once nothing covers it there. */
export async function mouseClick(page: Page, control: Control): Promise<void> {
  const { x, y } = await reach(page, control);
  await page.mouse.click(x, y);
}

/** Taps `control` with a finger (a context with hasTouch) at its middle. */
export async function tap(page: Page, control: Control): Promise<void> {
  const { x, y } = await reach(page, control);
  await page.touchscreen.tap(x, y);
}
