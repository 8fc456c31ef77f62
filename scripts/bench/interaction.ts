import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../chromium';
import { FLOOR_MOVE, FLOOR_PATH } from './floor';
import { RETURNING_VISITOR } from './page-weight';

/**
 * What a visitor feels after the page has painted, measured in Chromium (playwright-core, the
 * project's own dependency) rather than simulated:
 * - the delay of a first input: the phone field tapped as soon as it is painted, on a CPU
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
  /** The same tap on the floor's phone field (no script: the browser's own share), median, ms. */
  floorFirstInputDelayMs: number | null;
  floorFirstInputDelays: number[];
  /** Median over runs of the landing's delay less the floor's of the same run, in ms. */
  firstInputDelayOverFloorMs: number | null;
  /** Median over runs, from the tap to the next screen's first contentful paint, in ms. */
  screenToScreenMs: number | null;
  screenToScreen: number[];
  /** How the next screen arrived in the last run (Navigation Timing's deliveryType). */
  nextScreenDelivery: string;
  /** The same move between the two screens' static floors (floor.ts FLOOR_MOVE), median, ms. */
  floorMoveMs: number | null;
  floorMoves: number[];
  /** Median over runs of screen to screen over the floor's move of the same run. */
  screenToScreenRatio: number | null;
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
 * Run in the page, polled: the phone field's centre once the page has painted it (a visitor can
 * tap it from then on), or null. Cheap on purpose: Playwright's own tap first runs its
 * actionability checks (visible, stable, enabled) through a large script it injects, which at
 * 4x CPU put the touch about a second after the paint, when most of the hydration was over.
 */
const IN_PAGE_PAINTED_PHONE_FIELD = `(() => {
  if (performance.getEntriesByName('first-contentful-paint').length === 0) return null;
  const box = document.querySelector(${JSON.stringify(PHONE_FIELD)})?.getBoundingClientRect();
  return box && box.width > 0 && box.height > 0
    ? [box.x + box.width / 2, box.y + box.height / 2]
    : null;
})()`;

/** How often the page is asked whether the field is on screen yet. */
const POLL_MS = 10;

/**
 * Run in every document of the page before its own scripts: notes when the visitor's finger
 * touched the screen (epoch ms, the event's own timestamp) for the next document to read.
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

/**
 * A finger's tap at (x, y) in CSS pixels, as Chromium's touch emulation makes it (DevTools' device
 * mode): the browser turns a press and a release into touch, pointer and gesture events on its
 * usual input path, as it does a phone's touch screen. Not `Input.dispatchTouchEvent`, which
 * Playwright's taps use: Chromium runs those as a synthetic gesture that it paces itself
 * (content/browser/devtools/protocol/input_handler.cc). Traced at 4x CPU, such a touch reached
 * the page 600 ms after it was sent, with the compositor drawing frames all along; the same run's
 * mouse clicks waited for the task in progress only. The phone field tapped once it is painted,
 * 4 rounds of each, same run: a delay of 80-801 ms that way, 12-60 ms this way.
 */
async function tap(cdp: CDPSession, [x, y]: readonly [number, number]): Promise<void> {
  for (const type of ['mousePressed', 'mouseReleased'] as const) {
    await cdp.send('Input.emulateTouchFromMouseEvent', {
      type,
      x: Math.round(x),
      y: Math.round(y),
      button: 'left',
      clickCount: 1,
      timestamp: Date.now() / 1000,
    });
  }
}

async function newPage(
  browser: Browser,
  origin: URL,
  slowdown: number,
): Promise<{ page: Page; cdp: CDPSession }> {
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
  const cdp = await context.newCDPSession(page);
  if (slowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  return { page, cdp };
}

/**
 * A tap on the phone field the moment it is painted, then the Event Timing API's verdict.
 * The figure can be worse than a visitor's: Playwright turns on DevTools' Runtime domain, and
 * with it V8 parses react-dom's chunk again when React makes its `Error` objects at start
 * (42-70 ms at 1x in the task that evaluates it, 0.4-8.5 ms without DevTools; docs/performance.md,
 * "DevTools' cost in the bench's first input"). A tap that lands in that task waits for it here, and not on a phone.
 */
async function firstInputDelay(browser: Browser, origin: URL, landing: string): Promise<number> {
  const { page, cdp } = await newPage(browser, origin, CPU_SLOWDOWN);
  try {
    await page.goto(landing, { waitUntil: 'commit' });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const centre = await page.evaluate<[number, number] | null>(IN_PAGE_PAINTED_PHONE_FIELD);
      if (centre !== null) {
        await tap(cdp, centre);
        break;
      }
      if (Date.now() > deadline) throw new Error(`${landing}: the phone field was never painted`);
      await page.waitForTimeout(POLL_MS);
    }
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
  const { page, cdp } = await newPage(browser, origin, 1);
  try {
    await page.addInitScript({ content: IN_PAGE_NOTE_TAP });
    await page.goto(from, { waitUntil: 'load' });
    // The islands are awake and the next screen's prefetch has had its moment.
    // A function, not a string: the page's CSP refuses a string predicate (eval).
    await page.waitForFunction(
      new Function("return document.documentElement.dataset.booted === 'yes'") as () => boolean,
    );
    await page.waitForTimeout(500);
    const target = page.locator(button);
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (box === null) throw new Error(`${from}: ${button} is not on screen`);
    await Promise.all([
      page.waitForURL((url) => url.pathname !== from),
      tap(cdp, [box.x + box.width / 2, box.y + box.height / 2]),
    ]);
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
    const floorFirstInputDelays: number[] = [];
    const moves: { ms: number; delivery: string }[] = [];
    const floorMoves: number[] = [];
    for (let run = 0; run < runs; run++) {
      firstInputDelays.push(await firstInputDelay(browser, origin, '/one_pager'));
      floorFirstInputDelays.push(await firstInputDelay(browser, origin, FLOOR_PATH));
      // The default flow's upsell, whose Skip moves on to success, and right after it the same
      // move between static floors: a busy moment of the machine slows both.
      moves.push(await screenToScreen(browser, origin, '/upsell_an_private', '.skip-form button'));
      floorMoves.push(
        (await screenToScreen(browser, origin, FLOOR_MOVE.from, FLOOR_MOVE.button)).ms,
      );
    }
    return {
      firstInputDelayMs: median(firstInputDelays),
      firstInputDelays,
      floorFirstInputDelayMs: median(floorFirstInputDelays),
      floorFirstInputDelays,
      firstInputDelayOverFloorMs: median(
        firstInputDelays.map((delay, run) => delay - (floorFirstInputDelays[run] ?? NaN)),
      ),
      screenToScreenMs: median(moves.map((move) => move.ms)),
      screenToScreen: moves.map((move) => move.ms),
      nextScreenDelivery: moves.at(-1)?.delivery ?? 'none',
      floorMoveMs: median(floorMoves),
      floorMoves,
      screenToScreenRatio: median(moves.map((move, run) => move.ms / (floorMoves[run] ?? NaN))),
    };
  } finally {
    await browser.close();
  }
}
