import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../chromium';
import { RETURNING_VISITOR } from './page-weight';

/**
 * What a visitor feels after the page has painted, measured in Chromium (playwright-core, the
 * project's own dependency) rather than simulated:
 * - the delay of a first input: the phone field tapped as soon as it is on screen, on a CPU
 *   slowed four times as Lighthouse's phone is, read from the Event Timing API
 *   (`first-input`: from the tap to its handler starting);
 * - screen to screen: from a tap on a screen's Continue to the next screen's first paint.
 */

const CPU_SLOWDOWN = 4;
const PHONE_FIELD = '.phone-form input[type="tel"]';

export interface InteractionFigures {
  /** Median over runs of the first input's delay, in ms. */
  firstInputDelayMs: number | null;
  firstInputDelays: number[];
  /** Median over runs, from the tap to the next screen's first contentful paint, in ms. */
  screenToScreenMs: number | null;
  screenToScreen: number[];
  /** How the next screen arrived in the last run (Navigation Timing's deliveryType). */
  nextScreenDelivery: string;
}

/**
 * Run in the page, so written as text: this file is Node code (it sees no DOM types, as the
 * project's runtime walls have it). Resolves with the first input's delay, in ms.
 */
const IN_PAGE_FIRST_INPUT_DELAY = `new Promise((resolve, reject) => {
  new PerformanceObserver((list) => {
    const entry = list.getEntries()[0];
    if (entry) resolve(entry.processingStart - entry.startTime);
  }).observe({ type: 'first-input', buffered: true });
  setTimeout(() => reject(new Error('no first-input entry')), 10000);
})`;

/**
 * Run in every document of the page before its own scripts: notes when the visitor's finger
 * touched the screen (epoch ms, the event's own timestamp) for the next document to read. Taken
 * from the event rather than before Playwright's tap, whose checks (visible, stable, not covered)
 * take some 80-100 ms before the touch reaches the page, none of which a visitor waits.
 */
const IN_PAGE_NOTE_TAP = `addEventListener('pointerdown', (event) => {
  sessionStorage.setItem('bench:tapped', String(performance.timeOrigin + event.timeStamp));
}, { capture: true, once: true });`;

/** As above: from the tap to this page's first contentful paint, and how it came. */
const IN_PAGE_NEXT_PAINT = `return new Promise((resolve, reject) => {
  const tapped = Number(sessionStorage.getItem('bench:tapped'));
  if (!tapped) reject(new Error('the tap was not seen'));
  new PerformanceObserver((list) => {
    const paint = list.getEntriesByName('first-contentful-paint')[0];
    const navigation = performance.getEntriesByType('navigation')[0];
    if (paint) {
      resolve({
        ms: performance.timeOrigin + paint.startTime - tapped,
        delivery: (navigation && navigation.deliveryType) || 'network',
      });
    }
  }).observe({ type: 'paint', buffered: true });
  setTimeout(() => reject(new Error('the next screen never painted')), 10000);
});`;

function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : (sorted[Math.floor(sorted.length / 2)] ?? null);
}

async function newPage(browser: Browser, origin: URL, slowdown: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: origin.href,
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
  });
  await context.addCookies(
    RETURNING_VISITOR.Cookie.split('; ').map((pair) => {
      const [cookie = '', content = ''] = pair.split('=');
      return { name: cookie, value: content, url: origin.href };
    }),
  );
  const page = await context.newPage();
  if (slowdown > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  }
  return page;
}

/** A tap on the phone field the moment it is visible, then the Event Timing API's verdict. */
async function firstInputDelay(browser: Browser, origin: URL, landing: string): Promise<number> {
  const page = await newPage(browser, origin, CPU_SLOWDOWN);
  try {
    await page.goto(landing, { waitUntil: 'commit' });
    await page.locator(PHONE_FIELD).tap({ timeout: 30_000 });
    await page.keyboard.type('2', { delay: 0 });
    return await page.evaluate<number>(IN_PAGE_FIRST_INPUT_DELAY);
  } finally {
    await page.context().close();
  }
}

/** From a tap on `button` on `from` to the next screen's first contentful paint. */
async function screenToScreen(
  browser: Browser,
  origin: URL,
  from: string,
  button: string,
): Promise<{ ms: number; delivery: string }> {
  const page = await newPage(browser, origin, 1);
  try {
    await page.addInitScript({ content: IN_PAGE_NOTE_TAP });
    await page.goto(from, { waitUntil: 'load' });
    // The islands are awake and the next screen's prefetch has had its moment.
    // A function, not a string: the page's CSP refuses a string predicate (eval).
    await page.waitForFunction(
      new Function("return document.documentElement.dataset.booted === 'yes'") as () => boolean,
    );
    await page.waitForTimeout(500);
    await Promise.all([page.waitForURL((url) => url.pathname !== from), page.tap(button)]);
    return await page.evaluate<{ ms: number; delivery: string }>(
      new Function(IN_PAGE_NEXT_PAINT) as () => { ms: number; delivery: string },
    );
  } finally {
    await page.context().close();
  }
}

export async function measureInteraction(
  origin: URL,
  chromePath: string,
  runs: number,
): Promise<InteractionFigures> {
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
    headless: true,
  });
  try {
    const firstInputDelays: number[] = [];
    const moves: { ms: number; delivery: string }[] = [];
    for (let run = 0; run < runs; run++) {
      firstInputDelays.push(await firstInputDelay(browser, origin, '/one_pager'));
      // The default flow's upsell, whose Skip moves on to success.
      moves.push(await screenToScreen(browser, origin, '/upsell_an_private', '.skip-form button'));
    }
    return {
      firstInputDelayMs: median(firstInputDelays),
      firstInputDelays,
      screenToScreenMs: median(moves.map((move) => move.ms)),
      screenToScreen: moves.map((move) => move.ms),
      nextScreenDelivery: moves.at(-1)?.delivery ?? 'none',
    };
  } finally {
    await browser.close();
  }
}
