import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument, ContentPicture } from '../../../shared/config/content';
import type { ConfigDocument, ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import type { PictureUploadAnswer } from '../../../shared/console-api/pictures';
import { sniffPicture } from '../../../worker/pictures/sniff';
import { pngOf } from '../../fixtures/png';
import { freshApp } from '../fetch-app';
import { emptyPictures, upload } from './picture-fixtures';

/**
 * A picture from upload to a visitor's landing, through the console and the real KV, D1 and R2:
 * published with its alt text in every language it shows on the landing where the content puts
 * it, its sources fetch, and a picture the library lacks is refused at its path.
 */

beforeEach(async () => {
  await emptyPictures();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

const consoleApp = freshApp();
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
const post = (path: string, body: unknown) =>
  consoleApp(path, { method: 'POST', headers: SAME_ORIGIN, body: JSON.stringify(body) });

async function live(): Promise<ConfigDocument> {
  return ((await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState).live;
}

async function landing(language: string): Promise<string> {
  const response = await freshApp()('/one_pager?skip_split=true', {
    headers: { 'Accept-Language': language },
  });
  expect(response.status).toBe(200);
  return response.text();
}

const ALT: Record<string, string> = {
  en: 'A parent checking where their child is',
  ar: 'أحد الوالدين يتحقق من مكان طفله',
  de: 'Ein Elternteil sieht nach, wo das Kind ist',
  es: 'Un padre comprueba dónde está su hijo',
  fr: 'Un parent vérifie où se trouve son enfant',
  pt: 'Um pai verifica onde está o filho',
  ru: 'Родитель проверяет, где его ребёнок',
};
const ORDER = ['hero', 'phone_form', 'picture', 'claims', 'features', 'reviews', 'footer'];

function withPicture(picture: ContentPicture): ContentDocument {
  return {
    screens: {
      one_pager: { sections: ORDER.map((id) => ({ id, visible: true })), picture },
    },
  };
}

describe('a picture on the landing', () => {
  it('is published with its alt text and shown where the content puts it', async () => {
    const uploaded = await upload(consoleApp, await pngOf(800, 500, [200, 80, 40]));
    const { picture } = (await uploaded.json()) as PictureUploadAnswer;
    const named = { id: picture.id, width: 800, height: 500, alt: ALT };
    const published = await post(CONSOLE_API.publish, {
      base: null,
      document: { ...(await live()), content: withPicture(named) },
      note: 'a picture under the form',
    });
    expect(published.status).toBe(200);

    const english = await landing('en');
    const figure = english.slice(english.indexOf('<figure'), english.indexOf('</figure>'));
    expect(figure).toContain(
      `<source type="image/avif" srcSet="/pictures/${picture.id}-320.avif 320w`,
    );
    expect(figure).toContain('width="800" height="500"');
    expect(figure).toContain(`alt="${ALT.en}"`);
    expect(english.indexOf('class="phone-section"')).toBeLessThan(english.indexOf('<figure'));
    expect(await landing('ar')).toContain(`alt="${ALT.ar}"`);

    // What the page names, the worker serves.
    const src = /<img src="([^"]+)"/.exec(figure)?.[1] ?? '';
    const image = await consoleApp(src);
    expect(image.status).toBe(200);
    expect(sniffPicture(new Uint8Array(await image.arrayBuffer()))).toMatchObject({
      type: 'jpeg',
      width: 640,
      height: 400,
    });
  });

  it('is refused at its path when the library lacks it or its size is wrong; nothing is written', async () => {
    const uploaded = await upload(consoleApp, await pngOf(800, 500, [20, 180, 40]));
    const { picture } = (await uploaded.json()) as PictureUploadAnswer;
    const before = await env.FUNNEL_CONFIG.get('content', 'text');
    const refused = await post(CONSOLE_API.check, {
      base: null,
      document: {
        ...(await live()),
        content: withPicture({ id: 'f'.repeat(64), width: 800, height: 500, alt: ALT }),
      },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'content.screens.one_pager.picture.id',
        message: 'names no picture in the library: upload it first',
      },
    ]);
    const resized = await post(CONSOLE_API.publish, {
      base: null,
      document: {
        ...(await live()),
        content: withPicture({ id: picture.id, width: 1600, height: 1000, alt: ALT }),
      },
    });
    expect(((await resized.json()) as InvalidAnswer).errors.map((e) => e.path)).toEqual([
      'content.screens.one_pager.picture.width',
      'content.screens.one_pager.picture.height',
    ]);
    expect(await env.FUNNEL_CONFIG.get('content', 'text')).toBe(before);
  });
});
