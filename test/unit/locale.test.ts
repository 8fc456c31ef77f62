import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, THEMES } from '../../shared/theme';
import {
  DEFAULT_LANGUAGE,
  matchLanguage,
  parseAcceptLanguage,
  resolveLanguage,
  resolveTheme,
} from '../../worker/funnel/locale';

function language(
  acceptLanguage: string | null | undefined,
  supported: readonly string[],
  options: { customLng?: string | null; customLngAllowed?: boolean } = {},
): string {
  return resolveLanguage({
    acceptLanguage,
    supported,
    customLng: options.customLng ?? null,
    customLngAllowed: options.customLngAllowed ?? false,
  });
}

describe('matchLanguage', () => {
  const supported = ['en', 'pt-BR', 'pt-PT', 'de', 'zh-Hant'];

  it('prefers the exact code, ignoring case', () => {
    expect(matchLanguage('pt-PT', supported)).toBe('pt-PT');
    expect(matchLanguage('PT-br', supported)).toBe('pt-BR');
    expect(matchLanguage('zh-hant', supported)).toBe('zh-Hant');
  });

  it('then the language part alone', () => {
    expect(matchLanguage('de-AT', supported)).toBe('de');
    expect(matchLanguage('en-GB', ['en-US', 'en'])).toBe('en');
  });

  it('then any variant of the same language', () => {
    expect(matchLanguage('pt-AO', ['en', 'pt-BR'])).toBe('pt-BR');
    expect(matchLanguage('pt', ['en', 'pt-BR'])).toBe('pt-BR');
    expect(matchLanguage('zh-CN', supported)).toBe('zh-Hant');
  });

  it('is undefined when no supported language shares the language part', () => {
    expect(matchLanguage('fr-FR', supported)).toBeUndefined();
    expect(matchLanguage('p', ['pt-BR'])).toBeUndefined();
  });
});

describe('parseAcceptLanguage', () => {
  it('orders tags by q-value, then by their position in the header', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de;q=0.9, es, it;q=0.9, nl;q=1')).toEqual([
      'es',
      'nl',
      'de',
      'it',
      'fr',
    ]);
  });

  it('drops q=0, unparsable q-values and malformed tags', () => {
    expect(parseAcceptLanguage('de;q=0, fr;q=abc, *, en-, x_y, 12, it;q=0.1')).toEqual(['it']);
  });

  it('is empty for an empty header', () => {
    expect(parseAcceptLanguage('')).toEqual([]);
  });
});

describe('resolveLanguage', () => {
  it("matches 'pt-PT' to the same-language variant 'pt-BR'", () => {
    expect(language('pt-PT', ['en', 'pt-BR'])).toBe('pt-BR');
  });

  it("matches 'de-AT,de;q=0.9' to 'de'", () => {
    expect(language('de-AT,de;q=0.9', ['en', 'de'])).toBe('de');
  });

  it('takes the most preferred language that is supported, by q-value', () => {
    expect(language('fr;q=0.4, de;q=0.8, ja', ['en', 'fr', 'de'])).toBe('de');
    expect(language('ja, fr;q=0.1', ['en', 'fr'])).toBe('fr');
  });

  it('falls back to English when nothing matches or there is no header', () => {
    expect(DEFAULT_LANGUAGE).toBe('en');
    expect(language('ja, ko;q=0.5', ['en', 'de'])).toBe('en');
    expect(language(null, ['de', 'fr'])).toBe('en');
    expect(language(undefined, ['de', 'fr'])).toBe('en');
  });

  it('honours custom_lng where it is allowed (development), ahead of the header', () => {
    expect(language('de', ['en', 'de', 'fr'], { customLng: 'fr', customLngAllowed: true })).toBe(
      'fr',
    );
  });

  it('ignores custom_lng where it is not allowed', () => {
    expect(language('de', ['en', 'de', 'fr'], { customLng: 'fr', customLngAllowed: false })).toBe(
      'de',
    );
  });

  it('uses the header when custom_lng is unsupported', () => {
    expect(language('de', ['en', 'de'], { customLng: 'xx', customLngAllowed: true })).toBe('de');
  });

  it('property: never throws on any header or custom_lng and always returns a supported language or English', () => {
    const headerArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc
        .array(
          fc.tuple(
            fc.oneof(fc.string(), fc.constantFrom('en', 'de-AT', 'pt', '*', '')),
            fc.oneof(fc.string(), fc.constantFrom(';q=0.5', ';q=', ';q=NaN', ';q=1e999', ';;')),
          ),
          { maxLength: 30 },
        )
        .map((parts) => parts.map(([tag, q]) => tag + q).join(',')),
    );
    fc.assert(
      fc.property(
        fc.option(headerArb),
        fc.option(fc.string({ unit: 'binary' })),
        fc.array(fc.constantFrom('en', 'de', 'pt-BR', 'ar', 'zh-Hant'), { maxLength: 5 }),
        fc.boolean(),
        (acceptLanguage, customLng, supported, customLngAllowed) => {
          const result = resolveLanguage({
            acceptLanguage,
            customLng,
            supported,
            customLngAllowed,
          });
          expect([...supported, DEFAULT_LANGUAGE]).toContain(result);
        },
      ),
    );
  });
});

describe('resolveTheme', () => {
  it('accepts every theme by its full name, in any case', () => {
    for (const theme of THEMES) {
      expect(resolveTheme(theme)).toBe(theme);
      expect(resolveTheme(theme.toUpperCase())).toBe(theme);
    }
  });

  it('maps the aliases gz, fl, bb and fo', () => {
    expect(resolveTheme('gz')).toBe('geozilla');
    expect(resolveTheme('fl')).toBe('family-locator');
    expect(resolveTheme('bb')).toBe('brainbloom');
    expect(resolveTheme('fo')).toBe('findo');
  });

  it('falls back to geozilla for a name inherited from Object.prototype', () => {
    expect(resolveTheme('constructor')).toBe('geozilla');
    expect(resolveTheme('__proto__')).toBe('geozilla');
    expect(resolveTheme('hasOwnProperty')).toBe('geozilla');
  });

  it('property: any requested theme resolves to one of THEMES', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), (requested) => {
        expect(THEMES).toContain(resolveTheme(requested));
      }),
    );
  });

  it('falls back to geozilla for an unknown, empty or missing theme', () => {
    expect(DEFAULT_THEME).toBe('geozilla');
    expect(resolveTheme('solarized')).toBe('geozilla');
    expect(resolveTheme('')).toBe('geozilla');
    expect(resolveTheme(null)).toBe('geozilla');
    expect(resolveTheme(undefined)).toBe('geozilla');
  });
});
