import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PictureUploadAnswer } from '../../shared/console-api/pictures';
import { pngOf } from '../fixtures/png';
import { runAxe } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';

/**
 * A marketer's picture on a landing in Chromium: uploaded through the console, named by the
 * content, then seen by a visitor on a phone and on a desktop, in English and in Arabic: the
 * browser picks the AVIF, in a size near what its column needs, the space it takes is held
 * before it arrives, it never pushes the page sideways, and axe finds nothing.
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
  /** The box's height before the picture arrived. */
  heldHeight: number;
  alt: string;
  scrollWidth: number;
  viewport: number;
}

async function openLanding(width: number, language: string): Promise<{ page: Page; seen: Seen }> {
  const { page } = await session.newVisitor({ viewport: { width, height: 800 }, locale: language });
  await page.goto(
    new URL(`/one_pager?skip_split=true&custom_lng=${language}`, session.worker.url).href,
  );
  const heldHeight = await page.$eval(
    '.landing-picture img',
    (img) => img.getBoundingClientRect().height,
  );
  await page.locator('.landing-picture').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('.landing-picture img');
    return img?.complete && img.naturalWidth > 0;
  });
  const seen = await page.$eval('.landing-picture img', (img: HTMLImageElement) => {
    const { width, height } = img.getBoundingClientRect();
    return {
      src: img.currentSrc,
      box: { width, height },
      alt: img.alt,
      scrollWidth: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    };
  });
  return { page, seen: { ...seen, heldHeight } };
}

describe('a picture on the landing', () => {
  it.each([
    // The phone's 343 px column; a 288 px one; the desktop's 456 px start column (before the
    // features, which the page puts beside it).
    [390, 'en', 640, 343],
    [320, 'ar', 320, 288],
    [1280, 'en', 640, 456],
    [1280, 'ar', 640, 456],
  ])(
    'at %i px in %s is the AVIF of about its column, its space held, no sideways scroll',
    async (width, language, size, column) => {
      const { page, seen } = await openLanding(width, language);
      // Chromium's device scale factor is 1 here: the narrowest size at least the column's width.
      expect(seen.src).toMatch(new RegExp(`/pictures/${id}-${size}\\.avif$`));
      expect(seen.alt).toBe(ALT[language]);
      expect(seen.box.width).toBe(column);
      expect(Math.abs(seen.box.height - (seen.box.width * 1000) / 1600)).toBeLessThan(1);
      expect(Math.abs(seen.heldHeight - seen.box.height)).toBeLessThan(1);
      expect(seen.scrollWidth).toBe(seen.viewport);
      expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
      await reviewShot(page, `landing-picture-${width}-${language}`);
      await page.context().close();
    },
  );
});
