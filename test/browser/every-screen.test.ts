import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEMES } from '../../shared/theme';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  inspectLayout,
  installProbes,
  newRenderContext,
  openSettledScreen,
  type RenderWidth,
  walkKeyboard,
} from './layout-checks';
import { inspectRender, prepareRenderChecks, type RenderFindings } from './render-checks';
import { EVERY_RUN_RENDERS, LAYOUT_WIDTHS, WALK_TEST, walkOf } from './screen-walk';
import { measureSplit, sideBySideProblems, splitProblems } from './split-checks';
import { inspectWide } from './wide-checks';

/**
 * Every screen as a visitor first sees it, each render opened once for all its checks:
 * - the walk (screen-walk.ts): every screen in every theme in English, and in English, Arabic
 *   (right to left) and Russian in the default theme, at the widths where the layout changes
 *   (320, 432, 768 and 1024 px; one load per screen, theme and language, resized to each width):
 *   what a visitor would notice at a glance (no sideways scrolling, no text printed over other
 *   text or reaching past its box, no clipped logo, no address or number read in the wrong
 *   direction, nothing left under a bottom bar, no empty column on a wide window, no price, term
 *   or error in print under 12 px: wide-checks.ts; on the key screens of the wide layout, their
 *   two pieces side by side from 768 or 992, mirrored in Arabic, and one above the other on a
 *   phone: split-checks.ts). In the default theme also no sideways scrolling at 991 and 992,
 *   either side of the desktop's breakpoint. Each render hydrates every island and the browser
 *   says nothing of it: no console error or warning, no uncaught error, no answer of 400 or
 *   more, no failed request (harness.ts watchPage). `npm run test:matrix` walks every theme in
 *   every language at more widths (test/matrix/every-render.test.ts);
 * - in the same load, in English at 390 px: in the default theme accessibility too (axe-core
 *   finds no serious or critical violation, every control has an accessible name in the
 *   browser's own accessibility tree, a keyboard user reaches every control with Tab and sees
 *   where focus is); in the other themes, on a landing and a checkout, axe's text contrast; at
 *   1024 px on the wide layout's key screens, axe finds no violation at all;
 * - the wide layout beyond a first look: a state after a click or a scroll, and shapes
 *   particular to one screen.
 * Each width is one call into the page, whose checks are installed once a load.
 */

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
});

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

  describe('the walk’s checks themselves', () => {
    const logo = (file: string) => readFileSync(`public/logos/${file}`, 'utf8');
    const asBackground = (svg: string) =>
      `<span class="top-bar__logo" style="display:block;width:132px;height:28px;background:url('data:image/svg+xml,${encodeURIComponent(svg)}') center/contain no-repeat"></span>`;
    async function findingsOf(html: string): Promise<RenderFindings> {
      const page = await checksPage();
      await page.setContent(html);
      await prepareRenderChecks(page);
      return inspectRender(page);
    }

    it('name text cut off by its box or spilling out of it', async () => {
      const { textOverflow } =
        await findingsOf(`<!doctype html><html lang="en"><body style="margin:0;font:16px sans-serif">
        <p class="cut" style="width:100px;overflow:hidden;white-space:nowrap">A line much longer than its box</p>
        <button class="narrow" style="width:60px;padding:0">Supercalifragilistic</button>
        <p class="fits" style="width:300px">A line that fits</p>
      </body></html>`);
      expect(textOverflow).toHaveLength(2);
      expect(textOverflow[0]).toMatch(
        /^"A line much longer than its box" \(p\.cut\) reaches past its box p\.cut by \d+px$/,
      );
      expect(textOverflow[1]).toMatch(
        /^"Supercalifragilistic" \(button\.narrow\) reaches past its box/,
      );
    });

    it('name the logo cut to "FamilyLocato", and pass every theme’s logo as it is now', async () => {
      const cut = logo('family-locator.svg')
        .replaceAll('148', '132')
        .replace(/ textLength="\d+" lengthAdjust="[a-zA-Z]+"/, '');
      const before = await findingsOf(
        `<!doctype html><html lang="en"><body>${asBackground(cut)}</body></html>`,
      );
      expect(before.clippedLogos).toEqual([
        expect.stringMatching(
          /^span\.top-bar__logo \(a data: URL\) draws x 1…1[4-9]\d, y 1…27 in a viewBox x 0…132, y 0…28$/,
        ),
      ]);
      for (const theme of THEMES) {
        const { clippedLogos } = await findingsOf(
          `<!doctype html><html lang="ar" dir="rtl"><body>${asBackground(logo(`${theme}.svg`))}</body></html>`,
        );
        expect(clippedLogos, theme).toEqual([]);
      }
    });

    it('name an address, a domain chip and a phone number not isolated left to right in Arabic', async () => {
      const bad = await findingsOf(`<!doctype html><html lang="ar" dir="rtl"><body>
        <input class="mail" type="email" aria-label="البريد" value="anna@example.com">
        <button class="chip">@example.com</button>
        <p class="phone">رقم الهاتف <span>+44 7400 123456</span></p>
      </body></html>`);
      expect(bad.mixedDirection).toEqual([
        'input.mail holds left-to-right text but reads right to left',
        '"@example.com" in button.chip is not isolated left to right',
        '"+44 7400 123456" in p.phone > span is not isolated left to right',
      ]);
      const good = await findingsOf(`<!doctype html><html lang="ar" dir="rtl"><body>
        <input class="mail" type="email" dir="ltr" aria-label="البريد" value="anna@example.com">
        <button class="chip" dir="ltr">@example.com</button>
        <p class="phone">رقم الهاتف <bdi dir="ltr">+44 7400 123456</bdi></p>
      </body></html>`);
      expect(good.mixedDirection).toEqual([]);
      expect(good.textOverflow).toEqual([]);
    });
  });

  describe('the wide checks themselves', () => {
    /** A page of the funnel's shape: a content container and two columns in it. */
    const twoColumns = (side: string) => `<!doctype html><html lang="en"><head><style>
      body { margin: 0; font: 16px/1.4 sans-serif }
      main.page { max-width: 960px; margin: 0 auto; padding: 16px }
      .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 48px; align-items: start }
      .tall { display: block; width: 100%; height: 700px } .card { padding: 16px }
    </style></head><body><main class="page"><div class="grid">
      <div><h1>Find them</h1><button class="tall">A tall control</button></div>${side}
    </div></main></body></html>`;
    async function wideFindingsOf(html: string, width: number, height = 800) {
      const page = await checksPage();
      await page.setViewportSize({ width, height });
      await page.setContent(html);
      await installProbes(page);
      const findings = await inspectWide(page);
      await page.setViewportSize({ width: 350, height: 740 });
      return findings;
    }

    it('name the end column bare under its first card at 1280, and pass one filled down', async () => {
      const bare = await wideFindingsOf(twoColumns('<div class="card">What you get</div>'), 1280);
      expect(bare.emptyColumns).toEqual([
        expect.stringMatching(
          /^x 6\d\d…1\d{3} holds nothing from y \d+ to \d+ in a 1280×800 window/,
        ),
      ]);
      const filled = await wideFindingsOf(
        twoColumns(
          '<div class="card"><p>What you get</p><button class="tall">How it works</button></div>',
        ),
        1280,
      );
      expect(filled.emptyColumns).toEqual([]);
    });

    it('pass a centred phone column, a short page, and any page below 768', async () => {
      const column = `<!doctype html><html lang="en"><body style="margin:0">
        <main class="page" style="max-width:343px;margin:0 auto;padding:16px">
        <h1>Payment declined</h1><p style="height:900px">Nothing was charged.</p></main></body></html>`;
      expect((await wideFindingsOf(column, 1440, 900)).emptyColumns).toEqual([]);
      const short = twoColumns('<div class="card">What you get</div>').replace(
        'height: 700px',
        'height: 200px',
      );
      expect((await wideFindingsOf(short, 1280)).emptyColumns).toEqual([]);
      const bare = twoColumns('<div class="card">What you get</div>');
      expect((await wideFindingsOf(bare, 767)).emptyColumns).toEqual([]);
    });

    it('name a price, a term and an error under 12px, and pass them at 12px or hidden', async () => {
      const { smallPrint } = await wideFindingsOf(
        `<!doctype html><html lang="en"><body>
        <span class="plan-picker__period" style="font-size:11px">per day</span>
        <p class="plan-choice__disclosure" style="font-size:11.5px">Renews at $9.99</p>
        <p class="email-input__error" style="font-size:10px">Enter an email</p>
        <p data-must-read style="font-size:9px">Cancel anytime</p>
        <p class="plan-picker__old" style="font-size:12px">$9.99</p>
        <p role="alert" class="visually-hidden" style="font-size:1px;position:absolute;clip:rect(0 0 0 0)">Loading</p>
        <p class="caption" style="font-size:10px">A picture's caption</p>
        </body></html>`,
        390,
      );
      expect(smallPrint).toEqual([
        '"per day" (span.plan-picker__period) is 11px',
        '"Renews at $9.99" (p.plan-choice__disclosure) is 11.5px',
        '"Enter an email" (p.email-input__error) is 10px',
        '"Cancel anytime" (p) is 9px',
      ]);
    });
  });

  describe('the split checks themselves', () => {
    /** The funnel's container: the page's 960 on a wide window, a phone's 343 column inside. */
    const page = (grid: string) => `<!doctype html><html lang="en"><head><style>
      body { margin: 0 } main.page { max-width: 960px; margin: 0 auto; padding: 16px }
      @media (max-width: 431px) { main.page { max-width: 343px } }
      </style></head><body><main class="page">
      <div class="screen" style="${grid}"><div class="pitch">Find them</div><div class="aside">What you get</div></div>
      </main></body></html>`;
    async function splitAt(html: string, width: number, rtl = false) {
      const blank = await checksPage();
      await blank.setViewportSize({ width, height: 800 });
      await blank.setContent(html);
      const seen = await measureSplit(blank, '.pitch', '.aside');
      await blank.setViewportSize({ width: 350, height: 740 });
      return splitProblems(seen, width, rtl);
    }

    it('pass two columns at 1280 and one column at 390, and name what is not', async () => {
      const columns = page('display:grid;grid-template-columns:1fr 1fr;gap:48px');
      expect(await splitAt(columns, 1280)).toEqual([]);
      expect(await splitAt(page('display:block'), 390)).toEqual([]);
      expect(await splitAt(page('display:block'), 1280)).toEqual([
        expect.stringMatching(/^split: the side \(x \d+…\d+\) is not beside the main piece/),
        expect.stringMatching(/^split: the side begins at y \d+/),
      ]);
      const wideAside = page('display:block').replace(
        'class="aside"',
        'class="aside" style="width:500px"',
      );
      expect(await splitAt(wideAside, 390)).toEqual([
        expect.stringMatching(/^split: the side is 500px wide in a phone's column$/),
        expect.stringMatching(/^split: the page is \d+px wide in a 390px window$/),
      ]);
      expect(await splitAt(columns, 1280, true)).toEqual([
        expect.stringMatching(/^split: the side \(x \d+…\d+\) is not beside the main piece/),
      ]);
      expect(splitProblems('no .aside', 1280, false)).toEqual(['split: no .aside']);
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

describe.concurrent('the walk: every screen × theme in English, × en, ar, ru in the default theme, 320 to 1024 px', () => {
  const walk = walkOf(() => session, LAYOUT_WIDTHS);
  // slow: the default theme's English renders add axe, the accessibility tree and a Tab walk
  it.each(EVERY_RUN_RENDERS)(WALK_TEST, walk.check);
});

/**
 * What the walk's loads cannot see of the wide layout: a state after a click or a scroll, and
 * shapes particular to one screen, each on a page of its own at 1280 px.
 */
describe('the wide layout beyond the first look', () => {
  async function openAt(width: number, path: string): Promise<Page> {
    const { page } = await session.newVisitor({ viewport: { width, height: 800 } });
    await openSettledScreen(page, path);
    return page;
  }
  const planAndPayment = ['[data-island=PlanChoice]', '[data-island=CheckoutPayment]'] as const;

  it('the combo paywall is one centred column until its call to action opens the form beside the plans', async () => {
    const page = await openAt(1280, '/paycheck_combo_3d');
    const gated = await measureSplit(page, ...planAndPayment);
    if (typeof gated === 'string') throw new Error(gated);
    // The button's card under the plans, in their column: no end column holding a button alone.
    expect(gated.side.top).toBeGreaterThanOrEqual(gated.main.bottom);
    expect(Math.abs(gated.side.left - gated.main.left)).toBeLessThan(1);
    expect(Math.abs(gated.main.left + gated.main.right - gated.viewport)).toBeLessThan(2);
    await page.getByRole('button', { name: 'Start my 3-day trial' }).click();
    await page.getByRole('group', { name: 'Card details' }).waitFor();
    for (const width of [1280, 1024, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      const seen = await measureSplit(page, ...planAndPayment);
      expect(
        typeof seen === 'string' ? [seen] : sideBySideProblems(seen, false),
        `${width}px`,
      ).toEqual([]);
    }
    await page.context().close();
  });

  it('a landing keeps its phone form in sight beside the aside as the visitor reads on', async () => {
    const page = await openAt(1280, '/one_pager');
    const locate = () =>
      page.evaluate(() =>
        document.querySelector('.phone-form button')!.getBoundingClientRect().toJSON(),
      );
    const before = await locate();
    // Scrolled past where the button stood, to how it works beside it.
    await page.evaluate((by) => window.scrollBy(0, by), before.bottom + 8);
    const after = await locate();
    expect(after.top).toBeGreaterThanOrEqual(0);
    expect(after.bottom).toBeLessThanOrEqual(800);
    await page.context().close();
  });

  it('the result paywall shows its plans as cards in a row', async () => {
    const page = await openAt(1280, '/paycheck1_pr5_h_win');
    const cards = await page
      .locator('.plan-picker__item')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON()));
    expect(cards.length).toBeGreaterThanOrEqual(3);
    // One row: every card ends on the same line, each to the right of the one before.
    for (const [index, card] of cards.entries()) {
      expect(card.bottom).toBe(cards[0].bottom);
      if (index > 0) expect(card.left).toBeGreaterThan(cards[index - 1].right);
    }
    // Every violation axe knows, not only the serious ones.
    expect((await runAxe(page)).violations.map((violation) => violation.id)).toEqual([]);
    await page.context().close();
  });

  it('/features: Continue stands in the page under the heading, not pinned to the window', async () => {
    const page = await openAt(1280, '/features');
    const seen = await page.evaluate(() => {
      const button = document.getElementById('continue-button')!.getBoundingClientRect();
      const heading = document.querySelector('h1')!.getBoundingClientRect();
      const main = document.querySelector('main.page')!;
      return {
        position: getComputedStyle(document.querySelector('.bottom-button')!).position,
        padding: getComputedStyle(main).paddingBottom,
        underHeading: button.left === heading.left && button.top > heading.bottom,
        height: button.height,
      };
    });
    expect(seen).toEqual({ position: 'static', padding: '16px', underHeading: true, height: 56 });
    await page.context().close();
  });
});
