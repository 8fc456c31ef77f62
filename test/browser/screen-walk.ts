import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { formatInternational } from '../../shared/phone/phone-number';
import { SCREEN_IDS } from '../../shared/screens';
import { DEFAULT_THEME, THEMES } from '../../shared/theme';
import { accessibilityProblems, runAxe, seriousViolations } from './a11y-checks';
import { brandProblems } from './brand-checks';
import { type BrowserSession, watchPage } from './harness';
import {
  inspectOverflow,
  openSettledScreen,
  SCREENSHOT_DIR,
  saveScreenshot,
} from './layout-checks';
import { PATIENCE_MS } from './patience';
import {
  RENDER_CHECKS_SCRIPT,
  RENDER_OPTIONS,
  type RenderWindow,
  renderProblems,
} from './render-checks';
import {
  SPLIT_CHECKS_SCRIPT,
  SPLITS,
  type SplitWindow,
  splitPieces,
  splitProblems,
} from './split-checks';
import { publishWalkQuestions, WALK_QUESTION_IDS } from './walk-questions';
import { WIDE_CHECKS_SCRIPT, WIDE_OPTIONS, type WideWindow, wideProblems } from './wide-checks';

/**
 * The screen walk, shared by `npm test`'s walk (every-screen.test.ts) and the full matrix of
 * `npm run test:matrix` (test/matrix/every-render.test.ts): a screen opened once in one theme and
 * language, resized to each width, and checked at each for what a visitor would notice at a
 * glance (render-checks.ts, wide-checks.ts, split-checks.ts), its brand (brand-checks.ts) and,
 * in English, its accessibility. A render with a problem is saved as a PNG under
 * test-output/screenshots/walk for the reader of the failure. With SCREENSHOTS=1 each render is
 * also saved as a full-page PNG under test-output/screenshots for a reviewer, all of them on one
 * page, index.html there. Without it no PNG is encoded unless a check fails: hundreds of full
 * pages cost the suite more than they tell it.
 */

const SCREENSHOTS_WANTED = process.env.SCREENSHOTS === '1';

/** The walk's languages: left to right, right to left (Arabic), and Cyrillic's longer words. */
const WALK_LANGUAGES = ['en', 'ar', 'ru'] as const;

/**
 * Where the screens' CSS changes layout (screens/**\/styles*.ts): the page's padding and a 30 px
 * heading from 432; the tablet's two columns, wide pictures and search from 768; the desktop's
 * 960 px page and two columns from 992 (SPEC.md §9). Between two breakpoints the layout only
 * stretches. Each band is walked once: the phone at the smallest width it supports (320, the
 * body's min-width), the large phone and the tablet at their breakpoints, where text and boxes
 * are tightest, and the desktop at 1024, the smallest common window in it (a tablet lying down,
 * a small laptop); at 991 and 992 themselves the default theme is checked for sideways scrolling
 * (BREAKPOINT_WIDTHS). The desktop is not walked at 992: there a centred column of short Arabic
 * text, right-aligned, leaves a bare band just over a third of the window, which the empty-column
 * check takes for a bare side column (the result paywalls, x 16…352 at 992 × 768). (599 and below
 * is the 3-D Secure challenge's sheet, which no first render shows.)
 */
export const LAYOUT_WIDTHS = [320, 432, 768, 1024] as const;

/**
 * The matrix's widths: the layout's, and the windows people have within each band: a common
 * phone, a laptop and a desktop.
 */
export const MATRIX_WIDTHS = [320, 390, 432, 768, 1024, 1280, 1440] as const;

type WalkWidth = (typeof MATRIX_WIDTHS)[number];

/** A window height of each width's kind. */
const WALK_HEIGHT: Record<WalkWidth, number> = {
  320: 640,
  390: 844,
  432: 900,
  768: 1024,
  1024: 768,
  1280: 800,
  1440: 900,
};

/**
 * The desktop's breakpoint (SPEC.md §9) and the width just under it, where a rule of one side
 * of it could push a page sideways: checked for sideways scrolling in the default theme only.
 */
const BREAKPOINT_WIDTHS = [991, 992] as const;

/**
 * Where axe checks the whole page in the default theme for every violation it knows, not only
 * the serious ones: the desktop's walked width, on the wide layout's key screens, mirrored in
 * Arabic.
 */
const FULL_AXE_WIDTH = 1024;
const FULL_AXE_SCREENS: Record<string, readonly string[]> = {
  en: Object.keys(SPLITS),
  ar: ['checkout_v3_tr', 'one_pager', 'signup_testim'],
};

/** A landing and a checkout: between them they hold most of the shared building blocks. */
const THEMED_SCREENS: readonly string[] = ['one_pager', 'checkout_v3_tr'];
/** Screens whose content waits for the search to finish (a moment with reduced motion). */
const SEARCH_SCREENS: readonly string[] = ['searching', 'searching_2', 'searching_ai'];
/**
 * Pages walking at once. Two: one page's load leaves a core idle while the worker answers and
 * the page waits on its frames, and a second fills it; in `npm test` the walk shares the cores
 * with another browser file, whose pages a third would take turns with. The walk alone on an
 * idle machine, 2026-12-03: 133 s wall and 127 processor-seconds with one page, 83-88 s and
 * 127-137 with two, 74 s and 131 with three, 73 s and 139 with five (what it opened before
 * `take` counted the pages still opening: each test started meanwhile opened one, up to
 * Vitest's five concurrent tests). With a render opened and armed in two calls into the page
 * (layout-checks.ts openSettledScreen, openWalked below), 2026-12-04: 72-73 s and 116-118 with
 * two, 67 s and 122 with three; the suite lacks processor time, not wall.
 */
const WALKERS = 2;
/** A located number, as the landing's form stores it: the screens after it show it. */
const WALK_PHONE = '+447400123456';

/** The question kinds whose layout a language or theme changes: the choices, a field beside its unit. */
const QUESTIONS_IN_EVERY_RUN = new Set(['walk_single', 'walk_number']);

function questionRendered(screen: string, theme: string, language: string): boolean {
  if (theme !== DEFAULT_THEME) return language === 'en' && screen === 'walk_single';
  return language === 'en' || QUESTIONS_IN_EVERY_RUN.has(screen);
}

/** One screen in one theme and language. */
export type WalkRender = readonly [screen: string, theme: string, language: string];

/**
 * Every screen in every theme and every walked language, a quiz's question screens among them
 * (walk-questions.ts): the matrix's renders.
 */
export const EVERY_RENDER: readonly WalkRender[] = THEMES.flatMap((theme) =>
  WALK_LANGUAGES.flatMap((language) =>
    [...SCREEN_IDS, ...WALK_QUESTION_IDS].map((screen): WalkRender => [screen, theme, language]),
  ),
);

/**
 * `npm test`'s renders: every screen in every theme in English, and in every walked language in
 * the default theme. A theme changes a page's tokens and brand strings only (proved for every
 * screen and language in test/worker/render/theme-html.test.ts), so the other themes' Arabic and
 * Russian are left to the matrix. A quiz's question screens, drawn by one component, go in
 * English in the default theme, the choices and the number field in Arabic and Russian too, and
 * the choices in the other themes (questionRendered); the matrix walks them all.
 */
export const EVERY_RUN_RENDERS: readonly WalkRender[] = EVERY_RENDER.filter(
  ([screen, theme, language]) =>
    WALK_QUESTION_IDS.includes(screen)
      ? questionRendered(screen, theme, language)
      : language === 'en' || theme === DEFAULT_THEME,
);

/** Each walk test's name, after its screen, theme and language. */
export const WALK_TEST =
  '%s %s %s: no sideways scroll, no text over text or past its box, no clipped logo, no mixed direction, no empty column, no small print';

/**
 * The walk of a describe block: its pages open on the browser session `session()` gives once
 * the file's beforeAll has started it, and close after the block. The test file declares the
 * tests itself (`it.each(renders)(WALK_TEST, walk.check)`), so each has its line there for the
 * summary's slow-test rule (test/summary-reporter.ts).
 */
export function walkOf(
  session: () => BrowserSession,
  widths: readonly WalkWidth[],
): { check: (...render: WalkRender) => Promise<void> } {
  let walk: ReturnType<typeof screenWalk> | undefined;
  beforeAll(async () => {
    await publishWalkQuestions(session());
    walk = screenWalk(session(), widths);
  });
  afterAll(() => walk?.close());
  return { check: (...render) => walk!.check(render) };
}

/** Saves a passing render's PNG for a reviewer, with SCREENSHOTS=1 only. */
type Shoot = (page: Page, file: string) => Promise<void>;

/**
 * A walk over one browser session, WALKERS pages at a time, at `widths`: `check` opens one
 * render, checks it at each width and expects no problem; `close` closes its pages and writes
 * the contact sheet of the PNGs it saved.
 */
function screenWalk(
  session: BrowserSession,
  widths: readonly WalkWidth[],
): { check: (render: WalkRender) => Promise<void>; close: () => Promise<void> } {
  const walkers: Page[] = [];
  const idle: Page[] = [];
  const waiting: ((page: Page) => void)[] = [];
  const saved: string[] = [];
  const shoot: Shoot = async (page, file) => {
    if (!SCREENSHOTS_WANTED) return;
    await saveScreenshot(page, file);
    saved.push(file);
  };

  /** Pages being opened: counted with the open ones, or every test that starts meanwhile opens one. */
  let opening = 0;

  async function take(): Promise<Page> {
    const page = idle.pop();
    if (page) return page;
    if (walkers.length + opening < WALKERS) {
      opening += 1;
      try {
        return await newWalker(session, walkers);
      } finally {
        opening -= 1;
      }
    }
    return new Promise((resolve) => waiting.push(resolve));
  }
  function release(page: Page): void {
    const next = waiting.shift();
    if (next) next(page);
    else idle.push(page);
  }

  return {
    async check([screen, theme, language]) {
      const page = await take();
      try {
        const render = {
          path: `/${screen}?theme=${theme}&custom_lng=${language}`,
          screen,
          theme,
          language,
          file: `${theme}/${language}/${screen}.png`,
        };
        const seen = watched.get(page)!;
        const before = seen.length;
        const problems = await walkScreen(page, render, widths, shoot);
        // What the browser said while the render loaded, hydrated and was resized: a console
        // error or warning, a script's uncaught error, an answer of 400 or more, a failed request.
        const said = seen.slice(before);
        expect(said.length > 0 ? { ...problems, console: said } : problems).toEqual({});
      } finally {
        release(page);
      }
    },
    async close() {
      for (const page of walkers) await page.context().close();
      writeContactSheet(saved);
    },
  };
}

/** test-output/screenshots/index.html: all renders on one page, for a reviewer's browser. */
function writeContactSheet(saved: readonly string[]): void {
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

async function newWalker(session: BrowserSession, walkers: Page[]): Promise<Page> {
  const context = await session.browser.newContext({
    baseURL: session.worker.url.href,
    viewport: { width: 320, height: WALK_HEIGHT[320] },
    reducedMotion: 'reduce',
  });
  await context.addInitScript(
    ([phone, display]) => {
      localStorage.setItem('gf:map:phone', JSON.stringify(phone));
      localStorage.setItem('gf:map:phoneDisplay', JSON.stringify(display));
    },
    [WALK_PHONE, formatInternational(WALK_PHONE)],
  );
  const page = await context.newPage();
  watched.set(page, watchPage(page).problems);
  walkers.push(page);
  return page;
}

/** What the browser said on each walker page (harness.ts watchPage), render after render. */
const watched = new WeakMap<Page, string[]>();

interface WalkedRender {
  path: string;
  screen: string;
  theme: string;
  language: string;
  file: string;
}

/** Opens one screen once and checks it at each width; the PNG of each failing render is kept. */
async function walkScreen(
  page: Page,
  render: WalkedRender,
  widths: readonly WalkWidth[],
  shoot: Shoot,
): Promise<Record<number | string, string[]>> {
  const problems = await openWalked(page, render);
  for (const width of widths) {
    await page.setViewportSize({ width, height: WALK_HEIGHT[width] });
    const found = await widthProblems(page, render, width);
    if (found.length > 0) {
      problems[width] = found;
      await saveScreenshot(page, `walk/${width}/${render.file}`);
    } else {
      await shoot(page, `walk/${width}/${render.file}`);
    }
  }
  if (render.theme === DEFAULT_THEME) {
    for (const width of BREAKPOINT_WIDTHS) {
      await page.setViewportSize({ width, height: WALK_HEIGHT[1024] });
      const overflow = await inspectOverflow(page);
      if (overflow.length > 0) problems[width] = overflow.map((line) => `overflow: ${line}`);
    }
  }
  Object.assign(problems, await brandProblems(page));
  const accessibility = accessibilityChecks(render);
  if (accessibility) {
    // Last: the keyboard walk moves focus and scrolls.
    await page.setViewportSize({ width: 390, height: WALK_HEIGHT[390] });
    const found = await accessibility(page);
    if (found.length > 0) problems.accessibility = found;
  }
  return problems;
}

/** Loads the render and settles it; a page in the wrong language or direction is a problem. */
async function openWalked(
  page: Page,
  { path, screen, language }: WalkedRender,
): Promise<Record<number | string, string[]>> {
  await page.setViewportSize({ width: 320, height: WALK_HEIGHT[320] });
  await openSettledScreen(page, path);
  if (SEARCH_SCREENS.includes(screen))
    await page.locator('.search__rows').waitFor({ timeout: PATIENCE_MS });
  // Every width's checks into the page and its language read back, in one call.
  const { lang, dir } = await page.evaluate<{ lang: string; dir: string }>(
    `${RENDER_CHECKS_SCRIPT} ${WIDE_CHECKS_SCRIPT} ${SPLIT_CHECKS_SCRIPT}
    ({ lang: document.documentElement.lang, dir: document.documentElement.dir || 'ltr' })`,
  );
  // Arabic is bundled (locales/ar): the page must be Arabic and right-to-left (SPEC.md §9).
  return lang !== language || dir !== (language === 'ar' ? 'rtl' : 'ltr')
    ? { 0: [`the page is ${lang} ${dir}`] }
    : {};
}

/** Every check of one width on the page as it is laid out now, in one call into the page. */
async function widthProblems(
  page: Page,
  { screen, theme, language }: WalkedRender,
  width: number,
): Promise<string[]> {
  const pieces = splitPieces(screen, width);
  const seen = await page.evaluate(
    async ({ render, wide, pieces }) => {
      const checks = window as unknown as RenderWindow & WideWindow & SplitWindow;
      // Two frames: a resize lays out, and effects that follow it settle. The wide checks
      // first: the render checks scroll to the end and back, which may wake what waits below.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const wideFindings = checks.__measureWide(wide);
      return {
        wide: wideFindings,
        split: pieces ? checks.__readSplit(pieces) : undefined,
        render: await checks.__measureRender(render),
      };
    },
    { render: RENDER_OPTIONS, wide: WIDE_OPTIONS, pieces },
  );
  const found = [
    ...renderProblems(seen.render),
    ...wideProblems(seen.wide),
    ...(seen.split ? splitProblems(seen.split, width, language === 'ar') : []),
  ];
  if (
    width === FULL_AXE_WIDTH &&
    theme === DEFAULT_THEME &&
    FULL_AXE_SCREENS[language]?.includes(screen)
  ) {
    const { violations } = await runAxe(page);
    found.push(
      ...violations.map((violation) => `axe at ${width}: ${violation.id} (${violation.impact})`),
    );
  }
  return found;
}

/**
 * In English at 390 px, in the same load: in the default theme axe-core (no serious or critical
 * violation), accessible names and a keyboard walk; in the other themes, on a landing and a
 * checkout, axe's text contrast (WCAG AA).
 */
function accessibilityChecks({
  screen,
  theme,
  language,
}: WalkedRender): ((page: Page) => Promise<string[]>) | undefined {
  if (language !== 'en') return undefined;
  if (theme === DEFAULT_THEME) return accessibilityProblems;
  if (!THEMED_SCREENS.includes(screen)) return undefined;
  return async (page) => seriousViolations(await runAxe(page, { only: ['color-contrast'] }));
}
