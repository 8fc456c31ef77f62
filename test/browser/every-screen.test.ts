import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREEN_IDS } from '../../shared/screens';
import { DEFAULT_THEME, THEMES } from '../../shared/theme';
import { accessibilityProblems, runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  inspectLayout,
  layoutProblems,
  newRenderContext,
  openSettledScreen,
  RENDER_WIDTHS,
  type RenderWidth,
  SCREENSHOT_DIR,
  saveScreenshot,
  walkKeyboard,
} from './layout-checks';

/**
 * Every screen as a visitor first sees it, each render opened once for all its checks:
 * - at the three widths of SPEC.md §9, a landing and a checkout in every other theme, and every
 *   screen right-to-left (Arabic): what a visitor would notice at a glance (no sideways
 *   scrolling, no text printed over other text, nothing left under a bottom bar);
 * - at 350px in the default theme, accessibility too: axe-core finds no serious or critical
 *   violation, every control has an accessible name in the browser's own accessibility tree, and
 *   a keyboard user reaches every control with Tab and sees where focus is; in the other themes,
 *   axe's text contrast (WCAG AA).
 * With SCREENSHOTS=1 each render is also saved as a full-page PNG under test-output/screenshots
 * for a reviewer. Without it no PNG is encoded: 105 full pages cost the suite more than they
 * tell it.
 */

const SCREENSHOTS_WANTED = process.env.SCREENSHOTS === '1';

let session: BrowserSession;
const contexts = new Map<RenderWidth, BrowserContext>();
/** One page per width, reused from screen to screen: the run stays short on two cores. */
const pages = new Map<RenderWidth, Page>();

async function pageAt(width: RenderWidth): Promise<Page> {
  const existing = pages.get(width);
  if (existing) return existing;
  const context = await newRenderContext(session.browser, session.worker.url.href, width);
  const page = await context.newPage();
  contexts.set(width, context);
  pages.set(width, page);
  return page;
}

/**
 * A blank page of its own for the checks' own tests, which write pages with setContent. Closed
 * once they are done: a page its context has opened since runs in the foreground, and Chromium
 * slows the timers and frames of the one behind it.
 */
let blank: Page | undefined;
async function checksPage(): Promise<Page> {
  blank ??= await (await pageAt(350)).context().newPage();
  return blank;
}

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  for (const context of contexts.values()) await context.close();
  await session?.stop();
  writeContactSheet();
});

/** Every PNG this run saved, for the contact sheet. */
const saved: string[] = [];

async function shoot(page: Page, file: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  await saveScreenshot(page, file);
  saved.push(file);
}

/** test-output/screenshots/index.html: all renders on one page, for a reviewer's browser. */
function writeContactSheet(): void {
  if (saved.length === 0) return;
  const figures = saved
    .map(
      (file) =>
        `<figure><a href="${file}"><img src="${file}" loading="lazy" width="240" alt=""></a><figcaption>${file}</figcaption></figure>`,
    )
    .join('\n');
  writeFileSync(
    `${SCREENSHOT_DIR}/index.html`,
    `<!doctype html><meta charset="utf-8"><title>Geofunnel screenshots</title><style>body{font:14px system-ui;display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}figure{margin:0}img{display:block;border:1px solid #ccc}</style>\n${figures}\n`,
  );
}

/** A landing and a checkout: between them they hold most of the shared building blocks. */
const THEMED_SCREENS = ['one_pager', 'checkout_v3_tr'] as const;

async function expectCleanLayout(page: Page): Promise<void> {
  expect(layoutProblems(await inspectLayout(page))).toEqual([]);
}

describe('the checks themselves', () => {
  afterAll(() => blank?.close());

  describe('the layout checks themselves', () => {
    it('name an overflowing box, an overlapping pair of texts and text under a bottom bar', async () => {
      const page = await checksPage();
      await page.setContent(`<!doctype html><html lang="en"><head><style>
        body { margin: 0; font: 16px/1.4 sans-serif }
        .first, .second { position: absolute; top: 100px; left: 20px; margin: 0 }
        .second { left: 40px }
        .wide { width: 600px }
        .bar { position: fixed; bottom: 0; left: 0; right: 0; height: 80px; background: #fff }
        .end { margin: 0 }
      </style></head><body>
        <p class="first">First label</p><p class="second">Second label</p>
        <div class="wide">A box wider than the window</div>
        <div style="height: 1200px"></div><p class="end">Last words of the page</p>
        <div class="bar"><button>Continue</button></div>
      </body></html>`);
      const findings = await inspectLayout(page);
      expect(findings.overflow.join('\n')).toMatch(
        /page is 600px wide in a 350px window.*div\.wide/,
      );
      expect(findings.overlaps).toHaveLength(1);
      expect(findings.overlaps[0]).toMatch(
        /^"First label" \(p\.first\) overlaps "Second label" \(p\.second\) by \d+×\d+px$/,
      );
      expect(findings.underBottomBar).toEqual(['"Last words of the page" (p.end) under div.bar']);
    });

    it('name a box sticking out past the left edge of a right-to-left page', async () => {
      const page = await checksPage();
      await page.setContent(`<!doctype html><html lang="ar" dir="rtl"><head><style>
        body { margin: 0 } .wide { width: 500px; margin-inline-start: 16px }
      </style></head><body><div class="wide">صندوق أعرض من النافذة</div></body></html>`);
      const { overflow } = await inspectLayout(page);
      expect(overflow).toEqual(['page is 516px wide in a 350px window: div.wide spans x -166…334']);
    });

    it('pass a page whose texts only touch, share lines, or are hidden, clipped or floating', async () => {
      const page = await checksPage();
      await page.setContent(`<!doctype html><html lang="en"><head><style>
        body { margin: 0; padding: 0 16px 88px; font: 16px/1.4 sans-serif }
        .column { width: 140px }
        .tight { font: 600 17px/1 sans-serif; width: 120px; padding: 0; border: 0 }
        .stack { position: relative; height: 60px }
        .stack p { position: absolute; left: 0; margin: 0; line-height: 20px }
        .stack .upper { top: 0 } .stack .lower { top: 18px }
        .ghost { position: absolute; top: 0; left: 0; margin: 0 }
        .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0) }
        .carousel { width: 300px; overflow: hidden }
        .track { display: flex; width: 900px } .track p { flex: 0 0 300px; margin: 0 }
        .toast { position: fixed; top: 0; left: 0; right: 0; margin: 0 }
        .bar { position: fixed; bottom: 0; left: 0; right: 0; height: 80px; background: #fff }
      </style></head><body>
        <p class="column">Plain <b>bold</b> <a href="#a">a link</a> and <span>more <em>nested</em>
          words</span> that wrap across several lines of a narrow column.</p>
        <button class="tight"><span>Two tight</span><br><span>lines here</span></button>
        <div class="stack"><p class="upper">Upper line</p><p class="lower">Lower line</p></div>
        <p class="ghost" aria-hidden="true">Decorative copy over the text</p>
        <p class="ghost" style="opacity: 0">Faded copy over the text</p>
        <p class="ghost" style="visibility: hidden">Hidden copy over the text</p>
        <span class="ghost sr-only">Screen reader copy</span>
        <details><summary>First question</summary><p>A closed answer that wraps onto two lines</p></details>
        <details><summary>Second question</summary><p>A closed answer that wraps onto two lines</p></details>
        <details><summary>Third question</summary><p>A closed answer</p></details>
        <div class="carousel"><div class="track">
          <p>First review</p><p>Second review</p><p>Third review</p>
        </div></div>
        <p class="toast" role="status">A toast over the text</p>
        <div style="height: 1200px"></div><p>Last words of the page</p>
        <div class="bar"><button>Continue</button></div>
      </body></html>`);
      expect(await inspectLayout(page)).toEqual({ overflow: [], overlaps: [], underBottomBar: [] });
    });
  });

  describe('the accessibility checks themselves', () => {
    it('flag an unnamed input, a hidden focus ring and a control behind a keyboard trap', async () => {
      const page = await checksPage();
      await page.setContent(`<!doctype html><html lang="en"><head><title>Bad</title><style>
        .plain:focus { outline: none }
      </style></head><body><main><h1>Bad page</h1>
        <input id="nameless" type="email">
        <button class="plain" type="button">No ring</button>
        <input id="trap" aria-label="Trap" onkeydown="if (event.key === 'Tab') event.preventDefault()">
        <a href="#after" id="after">Behind the trap</a>
      </main></body></html>`);
      const axe = await runAxe(page);
      expect(axe.violations.map((violation) => violation.id)).toContain('label');
      expect(await unnamedControls(page)).toEqual([
        'input[id="nameless"][type="email"] (role textbox)',
      ]);
      const keyboard = await walkKeyboard(page);
      expect(keyboard.order).toEqual([
        'input#nameless',
        'main > button.plain "No ring"',
        'input#trap',
      ]);
      expect(keyboard.focusInvisible).toEqual(['main > button.plain "No ring"']);
      expect(keyboard.unreachable).toEqual(['a#after "Behind the trap"']);
    });

    it('pass named controls whose focus shows as an outline, a shadow or a ring around them', async () => {
      const page = await checksPage();
      await page.setContent(`<!doctype html><html lang="en"><head><title>Good</title><style>
        .shadow { box-shadow: 0 1px 2px #0003 } .shadow:focus { outline: none; box-shadow: 0 0 0 3px #2f6bff }
        .field { display: flex; border: 1px solid #555 } .field:focus-within { box-shadow: 0 0 0 3px #2f6bff }
        .field input:focus { outline: none }
      </style></head><body><main><h1>Good page</h1>
        <label>Email <input type="email" name="email"></label>
        <button class="shadow" type="button">Shadow ring</button>
        <div class="field"><input aria-label="Phone number" type="tel"></div>
        <fieldset><legend>Plan</legend>
          <label><input type="radio" name="plan" checked> Monthly</label>
          <label><input type="radio" name="plan"> Quarterly</label>
        </fieldset>
        <button type="button" tabindex="-1">Out of the tab order on purpose</button>
        <button type="button" disabled>Disabled</button>
        <a href="#top">Default ring</a>
      </main></body></html>`);
      expect(seriousViolations(await runAxe(page))).toEqual([]);
      expect(await unnamedControls(page)).toEqual([]);
      const keyboard = await walkKeyboard(page);
      expect(keyboard.unreachable).toEqual([]);
      expect(keyboard.focusInvisible).toEqual([]);
      expect(keyboard.order).toHaveLength(5);
    });
  });
});

describe(`every screen at 350px (theme ${DEFAULT_THEME})`, () => {
  it.each(SCREEN_IDS)(
    '%s: no sideways scrolling, no text over text; no serious axe violation, every control named, reachable by Tab, focus visible',
    async (screen) => {
      const page = await pageAt(350);
      await openSettledScreen(page, `/${screen}`);
      await shoot(page, `350/${screen}.png`);
      // Layout first: the keyboard walk moves focus and scrolls.
      const layout = layoutProblems(await inspectLayout(page));
      expect({ layout, accessibility: await accessibilityProblems(page) }).toEqual({
        layout: [],
        accessibility: [],
      });
    },
  );
});

for (const width of RENDER_WIDTHS.filter((width) => width !== 350)) {
  describe(`every screen at ${width}px (theme ${DEFAULT_THEME})`, () => {
    it.each(SCREEN_IDS)('%s: no sideways scrolling, no text over text', async (screen) => {
      const page = await pageAt(width);
      await openSettledScreen(page, `/${screen}`);
      await shoot(page, `${width}/${screen}.png`);
      await expectCleanLayout(page);
    });
  });
}

describe('other themes at 350px', () => {
  const renders = THEMES.filter((theme) => theme !== DEFAULT_THEME).flatMap((theme) =>
    THEMED_SCREENS.map((screen) => [theme, screen] as const),
  );
  it.each(renders)(
    '%s %s: no sideways scrolling, no text over text; text contrast meets WCAG AA (axe color-contrast)',
    async (theme, screen) => {
      const page = await pageAt(350);
      await openSettledScreen(page, `/${screen}?theme=${theme}`);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await shoot(page, `themes/${theme}/${screen}.png`);
      await expectCleanLayout(page);
      expect(seriousViolations(await runAxe(page, { only: ['color-contrast'] }))).toEqual([]);
    },
  );
});

describe('right to left (?custom_lng=ar) at 350px', () => {
  it.each(SCREEN_IDS)('%s: no sideways scrolling, no text over text', async (screen) => {
    const page = await pageAt(350);
    await openSettledScreen(page, `/${screen}?custom_lng=ar`);
    const { lang, dir } = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
    }));
    // Arabic is bundled (locales/ar): the page must be Arabic and right-to-left (SPEC.md §9).
    expect(lang).toBe('ar');
    expect(dir).toBe('rtl');
    await shoot(page, `ar/${screen}.png`);
    await expectCleanLayout(page);
  });
});
