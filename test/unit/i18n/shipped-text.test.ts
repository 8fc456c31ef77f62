import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ALL_TRANSLATIONS } from '../../../locales/all';

/**
 * After a failed read of a language's dictionary (worker/translations/source.ts), its
 * pages are English without asking the assets again for 10 s, then the isolate asks again.
 * The store is module state: each test imports it afresh (vi.resetModules), an isolate that
 * holds English only. Loading through the real ASSETS binding is test/worker/shipped-text.test.ts.
 */

async function newIsolate() {
  vi.resetModules();
  const loader = await import('../../../worker/translations/source');
  const i18n = await import('../../../worker/i18n');
  return { ...loader, ...i18n };
}

/** ASSETS answering 500 while `failing`, else the dictionary; counting the reads. */
function flakyAssets() {
  const state = { failing: true, reads: 0 };
  const assets = {
    async fetch(input: RequestInfo | URL): Promise<Response> {
      state.reads += 1;
      if (state.failing) return new Response('', { status: 500 });
      const language = /\/i18n\/(\w+)\.json$/.exec(String(input))?.[1] ?? '';
      return Response.json(ALL_TRANSLATIONS[language]);
    },
  } as unknown as Fetcher;
  return { assets, state };
}

const errors = () => vi.spyOn(console, 'error').mockImplementation(() => {});

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});

afterEach(() => vi.restoreAllMocks());

it('after a failed read, English for 10 s without asking again, then asks again', async () => {
  const logged = errors();
  const { loadShippedText, shippedTranslator } = await newIsolate();
  const { assets, state } = flakyAssets();
  let clock = 1_000_000;
  const now = () => clock;
  const german = ALL_TRANSLATIONS.de?.continue;

  expect(await loadShippedText({ assets }, 'de', now)).toBe(false);
  expect(shippedTranslator('de')('continue')).toBe(ALL_TRANSLATIONS.en?.continue);
  expect(logged).toHaveBeenCalledTimes(1);

  state.failing = false;
  clock += 9_999;
  expect(await loadShippedText({ assets }, 'de', now)).toBe(false);
  expect(state.reads).toBe(1);

  clock += 1;
  expect(await loadShippedText({ assets }, 'de', now)).toBe(true);
  expect(state.reads).toBe(2);
  expect(shippedTranslator('de')('continue')).toBe(german);
  expect(logged).toHaveBeenCalledTimes(1);
});

it('a read that throws is tried once more at once', async () => {
  errors();
  const { loadShippedText, shownLanguage } = await newIsolate();
  let reads = 0;
  const assets = {
    async fetch(): Promise<Response> {
      reads += 1;
      if (reads === 1) throw new Error('Network connection lost.');
      return Response.json(ALL_TRANSLATIONS.ar);
    },
  } as unknown as Fetcher;
  expect(await loadShippedText({ assets }, 'ar')).toBe(true);
  expect(reads).toBe(2);
  expect(shownLanguage('ar')).toBe('ar');
});

it('a language not shipped is never asked for', async () => {
  const { loadShippedText, shownLanguage } = await newIsolate();
  const { assets, state } = flakyAssets();
  expect(await loadShippedText({ assets }, 'xx')).toBe(false);
  expect(state.reads).toBe(0);
  expect(shownLanguage('xx')).toBe('en');
});
