import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGES, shippedTextAsset } from '../../locales';
import { ALL_TRANSLATIONS } from '../../locales/all';
import { TRANSLATION_KEYS } from '../../worker/translations/source';
import { productionApp } from './fetch-app';

/**
 * The languages but English are not in the worker's code: each is read from the static assets
 * (dist/client/i18n/<language>.json, which the build writes) at an isolate's first request in
 * it (worker/translations/source.ts). The tests below share one new module graph, so an isolate
 * that holds English only, as a freshly deployed one does, and count what the worker asks its
 * real ASSETS binding: first with Arabic missing from the assets, then, past the pause after a
 * failed load, with every language there. The file has a workerd of its own (the worker-apart
 * project, vitest.config.ts), so its module graph is the new isolate's: a shared workerd's
 * already held the languages earlier files loaded, and importing the app again in it (and again
 * for the next file, lest it inherit this one's paused language and faked Date) cost the worker
 * project about 20 s of a core.
 */

const OTHERS = LANGUAGES.filter((language) => language !== 'en');

/** The expected heading of /one_pager in a language, from the source files. */
function sourceTitle(language: string): string {
  const screens = ALL_TRANSLATIONS[language]?.screens as Record<string, Record<string, string>>;
  return screens.one_pager!.title!;
}

function heading(html: string): string | undefined {
  return html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1];
}

/**
 * The real ASSETS binding, counting the dictionaries asked for; the languages in `missing` answer
 * 404 while they are in it.
 */
function countedAssets() {
  const asked: string[] = [];
  const missing = new Set<string>();
  const assets = {
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      if (path.startsWith('/i18n/')) asked.push(path);
      if ([...missing].some((language) => shippedTextAsset(language) === path)) {
        return new Response('Not Found', { status: 404 });
      }
      return env.ASSETS!.fetch(input, init);
    },
  } as Fetcher;
  return { assets, asked, missing };
}

function errorLines(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
}

let errors: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  await reset();
  vi.restoreAllMocks();
});

it('the build wrote every language but English to the assets', async () => {
  for (const language of OTHERS) {
    const response = await env.ASSETS!.fetch(`https://funnel.test${shippedTextAsset(language)}`);
    expect(response.status, language).toBe(200);
    expect(await response.json(), language).toEqual(ALL_TRANSLATIONS[language]);
  }
});

describe('a new isolate', () => {
  const { assets, asked, missing } = countedAssets();
  const fetchApp = productionApp({}, { ASSETS: assets });
  afterAll(() => {
    vi.useRealTimers();
  });

  const inLanguage = (language: string, path = '/one_pager') =>
    fetchApp(path, { headers: { 'accept-language': language } }).then((r) => r.text());

  describe('whose dictionary is missing from the assets', () => {
    it('logs the failure once and serves English pages, saying so (SPEC.md §9)', async () => {
      missing.add('ar');
      const pages = await Promise.all(
        [1, 2].map(() => fetchApp('/one_pager', { headers: { 'accept-language': 'ar' } })),
      );
      for (const page of pages) {
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toMatch(/^<!doctype html><html lang="en" dir="ltr"/);
        expect(heading(html)).toBe(sourceTitle('en'));
      }
      expect(asked).toEqual([shippedTextAsset('ar')]);
      const failures = errorLines(errors).filter(
        (l) => l.error === 'translations_asset_unreadable',
      );
      expect(failures).toEqual([
        expect.objectContaining({
          level: 'error',
          language: 'ar',
          path: '/i18n/ar.json',
          detail: '/i18n/ar.json answered 404',
          using: 'en',
        }),
      ]);
      // The assets whole again, and the pause after the failure over (FAILED_LOAD_PAUSE_MS):
      // the tests below start from an isolate that holds English only.
      missing.clear();
      asked.length = 0;
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 10_001);
    });
  });

  describe('its pages in every language', () => {
    it('first requests arriving together share one read, and all show the language', async () => {
      const pages = await Promise.all(Array.from({ length: 5 }, () => inLanguage('ru')));
      expect(pages.map(heading)).toEqual(Array(5).fill(sourceTitle('ru')));
      expect(asked).toEqual([shippedTextAsset('ru')]);
    });

    it.each(OTHERS)('a page in %s shows its own copy, read once per isolate', async (language) => {
      for (let page = 0; page < 2; page += 1) {
        const html = await inLanguage(language);
        expect(html).toMatch(new RegExp(`^<!doctype html><html lang="${language}"`));
        expect(heading(html)).toBe(sourceTitle(language));
      }
      expect(asked.filter((path) => path === shippedTextAsset(language))).toHaveLength(1);
    });

    it('an English page asks the assets for nothing', async () => {
      const before = asked.length;
      expect(heading(await inLanguage('en'))).toBe(sourceTitle('en'));
      expect(asked).toHaveLength(before);
    });

    it('a KV copy override still wins over the loaded text (SPEC.md §7)', async () => {
      await env.FUNNEL_CONFIG.put(
        TRANSLATION_KEYS.dictionary('de', 11),
        JSON.stringify({ screens: { one_pager: { title: 'Neu aus KV' } } }),
      );
      await env.FUNNEL_CONFIG.put(
        TRANSLATION_KEYS.manifest,
        JSON.stringify({ timestamp: 11, languages: ['de'] }),
      );
      expect(heading(await inLanguage('de'))).toBe('Neu aus KV');
      // The keys the override leaves are the loaded German, not English.
      expect(await inLanguage('de', '/features')).toContain(
        `>${ALL_TRANSLATIONS.de?.continue}</button>`,
      );
    });
  });
});
