import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { createTranslationSource, TRANSLATION_KEYS } from '../../../worker/translations/source';

holdEveryLanguage();

/** KV with only what the source uses, counting reads and failing on demand. */
function fakeKv(values: Record<string, string> = {}) {
  const store = new Map(Object.entries(values));
  const reads: string[] = [];
  let failures = 0;
  const kv = {
    async get(key: string) {
      reads.push(key);
      if (failures > 0) {
        failures -= 1;
        throw new Error('KV GET failed: 500 Internal Server Error');
      }
      return store.get(key) ?? null;
    },
  };
  return {
    kv: kv as unknown as KVNamespace,
    reads,
    put: (key: string, value: unknown) =>
      store.set(key, typeof value === 'string' ? value : JSON.stringify(value)),
    failNext: (count: number) => {
      failures = count;
    },
  };
}

function manifest(timestamp: number, languages: string[]) {
  return JSON.stringify({ timestamp, languages });
}

function errorLines(spy: { mock: { calls: unknown[][] } }) {
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
}

const TITLE = 'screens.one_pager.title';
const BUNDLED_ES = 'Descubre dónde están tus seres queridos';

afterEach(() => vi.restoreAllMocks());

describe('translation overrides from KV', () => {
  it('uses the bundled text when no manifest exists, and logs nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { kv } = fakeKv();
    const t = await createTranslationSource().translatorFor(kv, 'es', 0);
    expect(t(TITLE)).toBe(BUNDLED_ES);
    expect(errors).not.toHaveBeenCalled();
  });

  it('lays the override over the bundled text of its language, then English', async () => {
    const { kv } = fakeKv({
      [TRANSLATION_KEYS.manifest]: manifest(100, ['es']),
      'translations:es:100': JSON.stringify({ screens: { one_pager: { title: '¡Nuevo!' } } }),
    });
    const t = await createTranslationSource().translatorFor(kv, 'es', 0);
    expect(t(TITLE)).toBe('¡Nuevo!');
    expect(t('screens.one_pager_all.title')).toBe(
      'Localiza cualquier teléfono, con su consentimiento',
    );
    expect(t('i18n.trial_days', { count: 1 })).toBe('Un periodo de prueba de 1 día');
  });

  it('leaves languages the manifest does not name, and other requests, on the bundled text', async () => {
    const { kv } = fakeKv({
      [TRANSLATION_KEYS.manifest]: manifest(100, ['es']),
      'translations:es:100': JSON.stringify({ [TITLE]: '¡Nuevo!' }),
    });
    const source = createTranslationSource();
    const es = await source.translatorFor(kv, 'es', 0);
    const de = await source.translatorFor(kv, 'de', 0);
    const bundled = await createTranslationSource().translatorFor(fakeKv().kv, 'es', 0);
    expect(es(TITLE)).toBe('¡Nuevo!');
    expect(de(TITLE)).toBe('Finde heraus, wo deine Liebsten sind');
    expect(bundled(TITLE)).toBe(BUNDLED_ES);
  });

  it('reads the manifest at most once per TTL and an override once per timestamp', async () => {
    let clock = 0;
    const { kv, reads, put } = fakeKv({
      [TRANSLATION_KEYS.manifest]: manifest(100, ['es']),
      'translations:es:100': JSON.stringify({ [TITLE]: 'v100' }),
    });
    const source = createTranslationSource({ now: () => clock });
    for (let i = 0; i < 5; i += 1) await source.translatorFor(kv, 'es', 10_000);
    expect(reads).toEqual([TRANSLATION_KEYS.manifest, 'translations:es:100']);

    put(TRANSLATION_KEYS.manifest, manifest(200, ['es']));
    put('translations:es:200', JSON.stringify({ [TITLE]: 'v200' }));
    expect((await source.translatorFor(kv, 'es', 10_000))(TITLE)).toBe('v100');
    clock = 10_000;
    expect((await source.translatorFor(kv, 'es', 10_000))(TITLE)).toBe('v200');
    clock = 15_000;
    expect((await source.translatorFor(kv, 'es', 10_000))(TITLE)).toBe('v200');
    expect(reads.slice(2)).toEqual([TRANSLATION_KEYS.manifest, 'translations:es:200']);
  });

  it('keeps the last good override when a new timestamp is broken, and logs it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { kv, put } = fakeKv({
      [TRANSLATION_KEYS.manifest]: manifest(100, ['es']),
      'translations:es:100': JSON.stringify({ [TITLE]: 'v100' }),
    });
    const source = createTranslationSource();
    await source.translatorFor(kv, 'es', 0);
    put(TRANSLATION_KEYS.manifest, manifest(200, ['es']));
    put('translations:es:200', '{"screens": ');
    expect((await source.translatorFor(kv, 'es', 0))(TITLE)).toBe('v100');
    expect(errorLines(errors)).toEqual([
      expect.objectContaining({
        level: 'error',
        error: 'translations_invalid',
        key: 'translations:es:200',
        using: 'last_known_good',
      }),
    ]);
  });

  it.each([
    ['missing', null, 'translations_missing'],
    ['invalid', '{"screens": 5}', 'translations_invalid'],
  ])('falls back to the bundled text when the override is %s', async (_, value, code) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { kv, put } = fakeKv({ [TRANSLATION_KEYS.manifest]: manifest(100, ['es']) });
    if (value !== null) put('translations:es:100', value);
    const t = await createTranslationSource().translatorFor(kv, 'es', 0);
    expect(t(TITLE)).toBe(BUNDLED_ES);
    expect(errorLines(errors)).toEqual([
      expect.objectContaining({ error: code, key: 'translations:es:100', using: 'bundled' }),
    ]);
  });

  it('does not read a broken override again within the TTL', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let clock = 0;
    const { kv, reads } = fakeKv({ [TRANSLATION_KEYS.manifest]: manifest(100, ['es']) });
    const source = createTranslationSource({ now: () => clock });
    await source.translatorFor(kv, 'es', 1_000);
    await source.translatorFor(kv, 'es', 1_000);
    clock = 1_000;
    await source.translatorFor(kv, 'es', 1_000);
    expect(reads.filter((key) => key === 'translations:es:100')).toHaveLength(2);
  });

  it('tries a read that throws once more at once, and uses it when it then succeeds', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { kv, reads, failNext } = fakeKv({
      [TRANSLATION_KEYS.manifest]: manifest(100, ['es']),
      'translations:es:100': JSON.stringify({ [TITLE]: 'v100' }),
    });
    failNext(1);
    expect((await createTranslationSource().translatorFor(kv, 'es', 0))(TITLE)).toBe('v100');
    expect(reads).toEqual([
      TRANSLATION_KEYS.manifest,
      TRANSLATION_KEYS.manifest,
      'translations:es:100',
    ]);
    expect(errors).not.toHaveBeenCalled();
  });

  it('serves the bundled text without waiting when KV keeps failing, and logs unreadable', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { kv, reads, failNext } = fakeKv({ [TRANSLATION_KEYS.manifest]: manifest(100, ['es']) });
    failNext(10);
    const started = performance.now();
    const t = await createTranslationSource().translatorFor(kv, 'es', 0);
    expect(performance.now() - started).toBeLessThan(50);
    expect(t(TITLE)).toBe(BUNDLED_ES);
    expect(reads).toHaveLength(2);
    expect(errorLines(errors)).toEqual([
      expect.objectContaining({
        error: 'translations_unreadable',
        key: TRANSLATION_KEYS.manifest,
        using: 'bundled',
      }),
    ]);
  });

  it('keeps using the last good manifest when the manifest turns invalid', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { kv, put } = fakeKv({
      [TRANSLATION_KEYS.manifest]: manifest(100, ['es']),
      'translations:es:100': JSON.stringify({ [TITLE]: 'v100' }),
    });
    const source = createTranslationSource();
    await source.translatorFor(kv, 'es', 0);
    put(TRANSLATION_KEYS.manifest, '{"timestamp": "yesterday"}');
    expect((await source.translatorFor(kv, 'es', 0))(TITLE)).toBe('v100');
    expect(errorLines(errors)).toEqual([
      expect.objectContaining({
        error: 'translations_invalid',
        key: TRANSLATION_KEYS.manifest,
        using: 'last_known_good',
      }),
    ]);
  });
});
