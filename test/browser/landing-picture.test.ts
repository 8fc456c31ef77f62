import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PictureUploadAnswer } from '../../shared/console-api/pictures';
import { pngOf } from '../fixtures/png';
import { runAxe } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';

/**
 * A marketer's picture on a landing in Chromium: uploaded through the console, named by the
 * content, then seen by a visitor on a phone whose window then widens to a desktop's, in English
 * and in Arabic: the browser picks the AVIF, in a size near what its column needs, the space it takes is held
 * before it arrives, it never pushes the page sideways, and axe finds nothing on the phone. The
 * desktop landing's full axe check, in English and Arabic, is the screen walk's
 * (every-screen.test.ts at 1024 px); the picture's alt is read at every width here.
 */

let session: BrowserSession;
let id = '';

const ALT: Record<string, string> = {
  en: 'A parent checking on a map where their child is',
  ar: 'أحد الوالدين يتحقق على الخريطة من مكان طفله',
  de: 'Ein Elternteil sieht auf der Karte nach, wo das Kind ist',
  es: 'Un padre comprueba en el mapa dónde está su hijo',
  fr: 'Un parent vérifie sur la carte où se trouve son enfant',
  pt: 'Um pai verifica no mapa onde está o filho',
  ru: 'Родитель проверяет на карте, где его ребёнок',
};

beforeAll(async () => {
  session = await startBrowserSession();
  const { url } = session.worker;
  const uploaded = await fetch(new URL('/console/pictures', url), {
    method: 'POST',
    headers: { Origin: url.origin, 'Content-Type': 'application/octet-stream' },
    body: await pngOf(1600, 1000, [52, 120, 190]),
  });
  expect(uploaded.status).toBe(201);
  id = ((await uploaded.json()) as PictureUploadAnswer).picture.id;
  const sections = ['hero', 'phone_form', 'picture', 'claims', 'features', 'reviews', 'footer'];
  await session.worker.putConfig('content', {
    screens: {
      one_pager: {
        sections: sections.map((section) => ({ id: section, visible: true })),
        picture: { id, width: 1600, height: 1000, alt: ALT },
      },
    },
  });
});
afterAll(async () => {
  await session?.worker.deleteConfig('content');
  await session?.stop();
});

interface Seen {
  src: string;
  box: { width: number; height: number };
  alt: string;
  scrollWidth: number;
  viewport: number;
}

/** The picture once the browser has shown it, its source ending `-<size>.avif`. */
async function seenAt(page: Page, size: number): Promise<Seen> {
  await page.locator('.landing-picture').scrollIntoViewIfNeeded();
  await page.waitForFunction((ending) => {
    const img = document.querySelector<HTMLImageElement>('.landing-picture img');
    return img?.complete && img.naturalWidth > 0 && img.currentSrc.endsWith(ending);
  }, `-${size}.avif`);
  return page.$eval('.landing-picture img', (img: HTMLImageElement) => {
    const { width, height } = img.getBoundingClientRect();
    return {
      src: img.currentSrc,
      box: { width, height },
      alt: img.alt,
      scrollWidth: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    };
  });
}

/**
 * What each width shows: the AVIF of about its column, in the page's proportions, no scroll;
 * with `axe`, axe finds no violation.
 */
async function expectSeen(page: Page, language: string, size: number, column: number, axe = true) {
  const seen = await seenAt(page, size);
  // Chromium's device scale factor is 1 here: the narrowest size at least the column's width.
  expect(seen.src).toMatch(new RegExp(`/pictures/${id}-${size}\\.avif$`));
  expect(seen.alt).toBe(ALT[language]);
  expect(seen.box.width, 'the column').toBe(column);
  expect(Math.abs(seen.box.height - (seen.box.width * 1000) / 1600)).toBeLessThan(1);
  expect(seen.scrollWidth, 'sideways scroll').toBe(seen.viewport);
  if (axe) expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
}

describe('a picture on the landing', () => {
  it.each([
    // The phone's 343 px column; a 288 px one. Then the same visitor's window widened to the
    // desktop's, where the picture takes the 456 px start column (before the features, which
    // the page puts beside it). The space held before the picture arrives is measured at the
    // first width; at any other it is the same proportion of the column, from the width and
    // height the page gives the <img> (test/worker/pictures/landing-picture.test.ts).
    [390, 'en', 640, 343],
    [320, 'ar', 320, 288],
  ])(
    'at %i px in %s, then at 1280 px, is the AVIF of about its column, its space held, no sideways scroll',
    async (width, language, size, column) => {
      const { page } = await session.newVisitor({
        viewport: { width, height: 800 },
        locale: language,
      });
      await page.goto(`/one_pager?skip_split=true&custom_lng=${language}`);
      const heldHeight = await page.$eval(
        '.landing-picture img',
        (img) => img.getBoundingClientRect().height,
      );
      await expectSeen(page, language, size, column);
      const { box } = await seenAt(page, size);
      expect(Math.abs(heldHeight - box.height), 'the space held before it came').toBeLessThan(1);
      await reviewShot(page, `landing-picture-${width}-${language}`);

      await page.setViewportSize({ width: 1280, height: 800 });
      await expectSeen(page, language, 640, 456, false);
      await reviewShot(page, `landing-picture-1280-${language}`);
      await page.context().close();
    },
  );
});
