import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadingOverlay } from '../../islands/kit/LoadingOverlay';
import { Preloader } from '../../screens/kit/Preloader';
import { type BrowserSession, startBrowserSession } from './harness';
import { islandsHydrated } from './visitor-steps';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

interface KitSeen {
  /** performance.now() when the preloader left the document. */
  removedAt: number;
  /**
   * The preloader once the page's content was in (`main.page`, which ends its rule in
   * screens/kit/styles/page.ts): at once if it was not showing then, else when its fade (0.2 s)
   * had ended.
   */
  afterContentPainted: 'unchecked' | 'visible' | 'hidden' | 'gone';
  /** The Largest Contentful Paint element, as `TAG.class`. */
  lcp: string;
}

/**
 * Records, from before the page's own script, what the preloader and LCP did. Not a fixed time
 * after the first contentful paint: the top bar streams before the page's content, and a first
 * paint of it alone (the worker slow to send the rest, as in a full suite) still has the preloader
 * over it by design, until the content comes.
 */
const WATCH_PRELOADER = () => {
  const seen: KitSeen = { removedAt: -1, afterContentPainted: 'unchecked', lcp: '' };
  (window as unknown as { kitSeen: KitSeen }).kitSeen = seen;
  const read = () => {
    const preloader = document.querySelector('.preloader');
    seen.afterContentPainted = !preloader
      ? 'gone'
      : getComputedStyle(preloader).visibility === 'visible'
        ? 'visible'
        : 'hidden';
  };
  let contentIn = false;
  new MutationObserver(() => {
    if (seen.removedAt < 0 && document.body && !document.querySelector('.preloader')) {
      seen.removedAt = performance.now();
    }
    if (contentIn || !document.querySelector('main.page')) return;
    contentIn = true;
    // Read in the animation callbacks of the frame after the first that draws the content: the
    // style then is the one that frame painted. Read at the mutation itself (a parser's
    // microtask), and in a loaded run even in the first frame's own callbacks, a preloader about
    // to fade once looked as one that stays: its fade starts with the style that frame computes.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const preloader = document.querySelector('.preloader');
        if (!preloader || getComputedStyle(preloader).visibility !== 'visible') {
          read();
          return;
        }
        // Showing: its fade must start with the content (its visibility turned off 0.2 s in, a
        // transition of its own); one that stays up without fading covers the content.
        const fading = preloader
          .getAnimations()
          .some((animation) => (animation as CSSTransition).transitionProperty === 'visibility');
        if (!fading) {
          read();
          return;
        }
        preloader.addEventListener('transitionend', (event) => {
          if ((event as TransitionEvent).propertyName === 'visibility') read();
        });
      }),
    );
  }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element })[]) {
      const element = entry.element;
      seen.lcp = element ? `${element.tagName}.${element.className}` : '';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

const kitSeen = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const seen = (window as unknown as { kitSeen: KitSeen }).kitSeen;
    const [navigation] = performance.getEntriesByType(
      'navigation',
    ) as PerformanceNavigationTiming[];
    return { ...seen, loadAt: navigation?.loadEventStart ?? -1 };
  });

/** What the sign-up page measures at its current width (main.page's content box, Continue, progress). */
const signupLayout = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main.page')!;
    const style = getComputedStyle(main);
    const inner = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const button = document.getElementById('continue-button')!.getBoundingClientRect();
    // The progress bar of the flow (signup is its second screen after the landing).
    const [first, second] = [...document.querySelectorAll('.linear-progress__segment')].map(
      (segment) => segment.getBoundingClientRect(),
    );
    const gap = first && second ? Math.abs(second.left - first.right) : null;
    return { inner, button: button.height, bottom: style.paddingBottom, gap };
  });

/** The motion of a preloader drawn now with the page's CSS: its transition and its spinner's. */
const preloaderMotion = (page: import('playwright-core').Page, html: string) =>
  page.evaluate((markup) => {
    const holder = document.createElement('div');
    holder.innerHTML = markup;
    document.body.appendChild(holder);
    const preloader = holder.querySelector('.preloader')!;
    const spinner = holder.querySelector('.preloader__spinner')!;
    const motion = [
      getComputedStyle(preloader).transitionDuration,
      getComputedStyle(spinner).animationName,
    ];
    holder.remove();
    return motion;
  }, html);

describe('the kit pieces every page carries, in Chromium', () => {
  // One load of /signup serves every check of the kit's pieces on it: what the page does while it
  // loads is recorded from before its own script, the rest read after, the window resized to each
  // width where the layout changes rather than loaded again.
  it('/signup: the preloader, the hydrated kit, the located banner, the widths, reduced motion and the overlay', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 350, height: 800 },
    });
    await page.addInitScript(WATCH_PRELOADER);
    // What the landing's phone form stores: the number in E.164 and as people write it.
    await page.addInitScript(() => {
      localStorage.setItem('gf:map:phone', '"+14155550123"');
      localStorage.setItem('gf:map:phoneDisplay', '"+1 415 555 0123"');
    });
    await page.goto('/signup');
    await islandsHydrated(page);

    // The preloader never covers painted content, is not the LCP, and goes after load.
    await expect
      .poll(async () => (await kitSeen(page)).removedAt, { timeout: 5000 })
      .toBeGreaterThan(0);
    await expect
      .poll(async () => (await kitSeen(page)).afterContentPainted, { timeout: 5000 })
      .not.toBe('unchecked');
    const seen = await kitSeen(page);
    expect(seen.afterContentPainted).not.toBe('visible');
    // Not before its second: the exact 1 s is test/unit/kit/preloader.test.tsx's (fake timers),
    // as a timer here may fire late on cores another run shares.
    expect(seen.removedAt - seen.loadAt).toBeGreaterThanOrEqual(1000);
    expect(seen.lcp).not.toMatch(/preloader/);
    expect(seen.lcp).not.toBe('');

    // The toast area and the loading overlay hydrated, hidden.
    const islands = await page.evaluate(() =>
      [...document.querySelectorAll('[data-island]')].map((island) =>
        island.getAttribute('data-island'),
      ),
    );
    expect(islands).toEqual(expect.arrayContaining(['ErrorToast', 'LoadingOverlay']));
    // The toast's live region waits, empty; the overlay is not in the way.
    expect(await page.locator('.toast-area[role=alert]').textContent()).toBe('');
    expect(await page.locator('.loading-overlay').count()).toBe(0);
    // Nothing of the kit sits over the screen's Continue button.
    const onTop = await page.evaluate(() => {
      const button = document.getElementById('continue-button')!;
      button.scrollIntoView({ block: 'center' });
      const box = button.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return hit !== null && button.contains(hit);
    });
    expect(onTop).toBe(true);

    // The 'number located' banner filled in the stored number after load.
    await expect
      .poll(() => page.locator('.located-banner bdi').textContent())
      .toBe('+1 415 555 0123');

    // From a tablet's 768 sign-up has two columns in the window's width, and from the desktop
    // width the page is the top bar's 960 (the walk's split-checks.ts); Continue and the progress
    // keep their measures there too: segments 5px apart (SPEC.md §9 segmented progress gap).
    const widths: [number, number][] = [
      [350, 318],
      [432, 343],
      [767, 343],
      [768, 736],
      [992, 960],
    ];
    for (const [width, content] of widths) {
      await page.setViewportSize({ width, height: 800 });
      expect({ width, ...(await signupLayout(page)) }).toEqual({
        width,
        inner: content,
        button: 56,
        bottom: '16px',
        gap: 5,
      });
    }

    // For visitors who ask for reduced motion the preloader does not fade, nor its spinner turn.
    const preloader = renderToStaticMarkup(createElement(Preloader));
    expect(await preloaderMotion(page, preloader)).toEqual(['0.2s, 0s', 'kit-spin']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await preloaderMotion(page, preloader)).toEqual(['0s', 'none']);
    await page.emulateMedia({ reducedMotion: 'no-preference' });

    // An enabled loading overlay covers the page and takes the clicks meant for it.
    await page.setViewportSize({ width: 390, height: 800 });
    const overlay = renderToStaticMarkup(
      createElement(LoadingOverlay, {
        enabled: true,
        message: 'Creating your account…',
        label: '',
      }),
    );
    await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), overlay);
    const hit = await page.evaluate(() => {
      const box = document.getElementById('continue-button')!.getBoundingClientRect();
      return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.className;
    });
    expect(hit).toBe('loading-overlay');
    await page.evaluate(() =>
      document.addEventListener(
        'click',
        (event) => {
          (window as unknown as { clicked: string }).clicked = (event.target as Element).className;
        },
        { capture: true, once: true },
      ),
    );
    const box = (await page.locator('#continue-button').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // The click landed on the overlay, so Continue never had it.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { clicked?: string }).clicked))
      .toBe('loading-overlay');
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('/features pins Continue 24px above the bottom edge; 88px of padding keep the end clear', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.setViewportSize({ width: 350, height: 640 });
    await page.goto('/features');
    await islandsHydrated(page);
    const measure = () =>
      page.evaluate(() => {
        const button = document.getElementById('continue-button')!.getBoundingClientRect();
        const last = document.querySelector('main.page')!.lastElementChild!.lastElementChild!;
        return {
          fromBottom: window.innerHeight - button.bottom,
          padding: getComputedStyle(document.querySelector('main.page')!).paddingBottom,
          lastEnd: last.getBoundingClientRect().bottom,
          buttonTop: button.top,
        };
      });
    const top = await measure();
    expect(top.fromBottom).toBe(24);
    expect(top.padding).toBe('88px');
    // Scrolled to the end, the screen's last line sits above the button, not under it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const end = await measure();
    expect(end.fromBottom).toBe(24);
    expect(end.lastEnd).toBeLessThanOrEqual(end.buttonTop);
    expect(problems).toEqual([]);
    await context.close();
  });
});
