import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_TRANSLATIONS } from '../../locales/all';
import type { Dictionary } from '../../shared/config/translations';
import { SCREEN_IDS } from '../../shared/screens';
import { TRANSLATION_KEYS } from '../../worker/translations/source';
import { freshApp } from './fetch-app';

afterEach(async () => {
  await reset();
  vi.restoreAllMocks();
});

const LANGUAGES = Object.keys(ALL_TRANSLATIONS);

function flatKeys(dictionary: Dictionary, prefix = ''): string[] {
  return Object.entries(dictionary).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string'
      ? [path, path.replace(/_(zero|one|two|few|many|other)$/, '')]
      : flatKeys(value, path);
  });
}

const KNOWN_KEYS = new Set(Object.values(ALL_TRANSLATIONS).flatMap((d) => flatKeys(d)));
const NAMESPACES = new Set(
  Object.values(ALL_TRANSLATIONS).flatMap((d) =>
    Object.entries(d)
      .filter(([, value]) => typeof value === 'object')
      .map(([key]) => key),
  ),
);
const KEY_LIKE = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;

/**
 * What i18next shows for a key it cannot find is the key itself. A text is such a key when it
 * is a key some language has, or looks like a dotted key under one of the areas, or a dotted
 * name with an underscore (which a host name such as "gmail.com" never has).
 */
function isRawKey(text: string, language: string): boolean {
  const trimmed = text.trim();
  if (KNOWN_KEYS.has(trimmed)) {
    // A one-word text may rightly equal a key ("Geozilla" is no key; "continue" would be).
    return !flatTexts(ALL_TRANSLATIONS[language]!).has(trimmed);
  }
  if (!KEY_LIKE.test(trimmed)) return false;
  return NAMESPACES.has(trimmed.split('.')[0]!) || trimmed.includes('_');
}

function flatTexts(dictionary: Dictionary): Set<string> {
  return new Set(
    Object.values(dictionary).flatMap((value) =>
      typeof value === 'string' ? [value] : [...flatTexts(value)],
    ),
  );
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

const VISIBLE_ATTRIBUTES = ['aria-label', 'placeholder', 'title', 'alt', 'value', 'content'];

/** Every text a visitor can see or hear on the page: text nodes, labels and island props. */
async function visibleTexts(html: string): Promise<string[]> {
  const texts: string[] = [];
  let pending = '';
  const withoutCode = html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '');
  await new HTMLRewriter()
    .on('*', {
      element(element) {
        for (const name of VISIBLE_ATTRIBUTES) {
          const value = element.getAttribute(name);
          if (value) texts.push(value);
        }
        const props = element.getAttribute('data-props');
        if (props) texts.push(...stringsIn(JSON.parse(props.replaceAll('&quot;', '"'))));
      },
    })
    .onDocument({
      text(chunk) {
        pending += chunk.text;
        if (chunk.lastInTextNode) {
          if (pending.trim()) texts.push(pending.trim());
          pending = '';
        }
      },
    })
    .transform(new Response(withoutCode))
    .text();
  return texts;
}

function heading(html: string): string | undefined {
  return html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1];
}

/** The page with its per-request script nonce blanked, for comparing two responses. */
function withoutNonce(html: string): string {
  // As an attribute, and in the elements the page's script adds ("nonce":"…").
  return html.replace(/nonce("?[=:])"[^"]*"/g, 'nonce$1""');
}

function errorLines(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
}

describe('every screen in every language', () => {
  it.each(LANGUAGES)('%s: no screen shows a raw translation key', async (language) => {
    // 25 pages' request and config lines would bury the one line that matters.
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchApp = freshApp();
    const problems: string[] = [];
    for (const path of [...SCREEN_IDS, 'no-such-page']) {
      const res = await fetchApp(`/${path}?custom_lng=${language}`);
      const html = await res.text();
      if (res.status >= 500) problems.push(`${path}: status ${res.status}`);
      if (!html.includes(`<html lang="${language}"`)) problems.push(`${path}: not in ${language}`);
      for (const text of await visibleTexts(html)) {
        if (isRawKey(text, language)) problems.push(`${path}: "${text}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the check finds a raw key where one is shown', async () => {
    const html =
      '<html><body><h1>screens.nope.title</h1><div data-props="{&quot;label&quot;:&quot;kit.or&quot;}"></div><input placeholder="signup.email_placeholder"><p>gmail.com</p></body></html>';
    const found = (await visibleTexts(html)).filter((text) => isRawKey(text, 'en'));
    expect(found.sort()).toEqual(['kit.or', 'screens.nope.title', 'signup.email_placeholder']);
  });
});

describe('page language and direction', () => {
  it('Arabic pages are right-to-left and styled for Arabic', async () => {
    const html = await (await freshApp()('/one_pager?custom_lng=ar')).text();
    expect(html).toMatch(/^<!doctype html><html lang="ar" dir="rtl"/);
    expect(html).toContain('html:lang(ar){--font:');
    expect(heading(html)).toBe('اعرف أين أحبّاؤك الآن');
  });

  it('a Brazilian browser gets the Portuguese page, left-to-right', async () => {
    const res = await freshApp()('/one_pager', {
      headers: { 'accept-language': 'pt-BR,pt;q=0.9' },
    });
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html><html lang="pt" dir="ltr"/);
    expect(heading(html)).toBe('Descubra onde estão as pessoas que você ama');
  });
});

describe('copy updates from KV, without a deploy (SPEC.md §7)', () => {
  const kv = () => env.FUNNEL_CONFIG;

  async function publish(timestamp: number, dictionaries: Record<string, unknown>) {
    for (const [language, dictionary] of Object.entries(dictionaries)) {
      await kv().put(
        TRANSLATION_KEYS.dictionary(language, timestamp),
        typeof dictionary === 'string' ? dictionary : JSON.stringify(dictionary),
      );
    }
    await kv().put(
      TRANSLATION_KEYS.manifest,
      JSON.stringify({ timestamp, languages: Object.keys(dictionaries) }),
    );
  }

  it('a timestamped override changes a heading; the rest keeps the bundled text', async () => {
    // One visitor (and country) for both, so the page's analytics context is the same too.
    const visitor = {
      headers: { cookie: 'userUuid=3f0c6f5e-8a1b-4c2d-9e3f-0a1b2c3d4e5f', 'cf-ipcountry': 'ES' },
    };
    const bundled = await (await freshApp()('/one_pager?custom_lng=es', visitor)).text();
    const title = heading(bundled)!;
    await publish(1732260000, {
      es: { screens: { one_pager: { title: '¡Encuentra a los tuyos!' } } },
    });
    const html = await (await freshApp()('/one_pager?custom_lng=es', visitor)).text();
    expect(heading(html)).toBe('¡Encuentra a los tuyos!');
    // Everything else on the page is the bundled Spanish page, word for word.
    expect(withoutNonce(html).replaceAll('¡Encuentra a los tuyos!', title)).toBe(
      withoutNonce(bundled),
    );
  });

  it('a new timestamp replaces the copy of the old one', async () => {
    const fetchApp = freshApp();
    await publish(1, { de: { 'screens.one_pager.title': 'Erste Fassung' } });
    expect(heading(await (await fetchApp('/one_pager?custom_lng=de')).text())).toBe(
      'Erste Fassung',
    );
    await publish(2, { de: { 'screens.one_pager.title': 'Zweite Fassung' } });
    const second = await (await fetchApp('/one_pager?custom_lng=de')).text();
    expect(heading(second)).toBe('Zweite Fassung');
    // The page's <title> too: titles and heads are kept per translator, and this is a new one.
    expect(/<title>([^<]*)<\/title>/.exec(second)?.[1]).toMatch(/^Zweite Fassung\b/);
  });

  it('an English override also reaches the page title and the 404 page', async () => {
    await publish(5, {
      en: { screens: { one_pager: { title: 'Locate a phone' } }, not_found: { title: 'Lost?' } },
    });
    const fetchApp = freshApp();
    const html = await (await fetchApp('/one_pager')).text();
    expect(html).toContain('<title>Locate a phone · Geozilla</title>');
    expect(heading(await (await fetchApp('/nowhere')).text())).toBe('Lost?');
  });

  it('leaves other languages on their bundled text', async () => {
    await publish(3, { es: { 'screens.one_pager.title': 'Solo en español' } });
    const html = await (await freshApp()('/one_pager?custom_lng=fr')).text();
    expect(heading(html)).toBe('Sachez où se trouvent vos proches');
  });

  it('a broken override falls back to the bundled text and logs an error line', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await publish(7, { ru: '{"screens": {"one_pager": {"title": 42}}}' });
    const res = await freshApp()('/one_pager?custom_lng=ru');
    expect(res.status).toBe(200);
    expect(heading(await res.text())).toBe('Узнайте, где сейчас ваши близкие');
    expect(errorLines(errors)).toContainEqual(
      expect.objectContaining({
        level: 'error',
        error: 'translations_invalid',
        key: 'translations:ru:7',
        using: 'bundled',
      }),
    );
  });

  it('a manifest naming an override that was never stored falls back and logs', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await kv().put(TRANSLATION_KEYS.manifest, JSON.stringify({ timestamp: 9, languages: ['fr'] }));
    const res = await freshApp()('/one_pager?custom_lng=fr');
    expect(heading(await res.text())).toBe('Sachez où se trouvent vos proches');
    expect(errorLines(errors)).toContainEqual(
      expect.objectContaining({ error: 'translations_missing', key: 'translations:fr:9' }),
    );
  });
});
