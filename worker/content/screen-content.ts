import type { TFunction } from 'i18next';
import type { Arrangement } from '../../screens/kit/arrangement';
import type { ShownPicture } from '../../screens/types';
import type { ScreenRef } from '../../shared/composed-screens';
import type { ContentDocument, ReviewRating } from '../../shared/config/content';
import { contentOfRef, screenBodyOf } from '../../shared/content-body';

/**
 * What a marketer's content makes of one screen for one language, with the content variant an
 * experiment shows the visitor, if any: its sections' arrangement and a translator with the
 * screen's copy laid over the request's. Worked out once per content
 * version, screen, language and translator, and kept with the content object (the config source
 * hands the same object on until KV's text changes, worker/config/load.ts): a page adds no KV
 * read and, after its first request, no work but a few map lookups.
 */
export interface ShownContent {
  arrangement: Arrangement | null;
  t: TFunction;
  /** The picture its `picture` section shows, described in the page's language, if any. */
  picture?: ShownPicture;
  /** The rating its reviews section shows: the marketer's, for every variant and language. */
  rating?: ReviewRating;
}

type PerTranslator = WeakMap<TFunction, ShownContent>;

const compiled = new WeakMap<ContentDocument, Map<string, PerTranslator>>();

export function shownContent(
  content: ContentDocument,
  /** The screen as the flow names it: a composed one shows its own content. */
  screen: ScreenRef,
  language: string,
  t: TFunction,
  /** The content variant an experiment shows this visitor (worker/funnel/flow.ts FunnelShape), else null. */
  variant: string | null = null,
): ShownContent {
  const own = contentOfRef(content, screen);
  if (!own) return { arrangement: null, t };
  let byScreen = compiled.get(content);
  if (!byScreen) {
    byScreen = new Map();
    compiled.set(content, byScreen);
  }
  const at = `${screen}|${variant ?? ''}|${language}`;
  let byTranslator = byScreen.get(at);
  if (!byTranslator) {
    byTranslator = new WeakMap();
    byScreen.set(at, byTranslator);
  }
  let shown = byTranslator.get(t);
  if (!shown) {
    const body = screenBodyOf(own, variant);
    const texts = body.copy?.[language];
    shown = {
      arrangement: body.sections ?? null,
      t: texts && Object.keys(texts).length > 0 ? withTexts(t, texts, language) : t,
      picture: body.picture
        ? {
            id: body.picture.id,
            width: body.picture.width,
            height: body.picture.height,
            // Every shipped language is given (worker/content/check.ts); another falls back.
            alt: body.picture.alt[language] ?? body.picture.alt.en ?? '',
          }
        : undefined,
      rating: own.rating,
    };
    byTranslator.set(t, shown);
  }
  return shown;
}

/** A key no copy file has: asked with a default, i18next interpolates the default. */
const OVERRIDE_KEY = '__content_override__';

/**
 * `t` with `texts` (copy key → text) laid over it. A counted key takes the language's plural
 * form (`_one`, `_few`…), else `_other`; placeholders are filled by i18next as in the bundled
 * copy. Text without placeholders asked without options is returned as it is.
 */
function withTexts(t: TFunction, texts: Readonly<Record<string, string>>, language: string) {
  const plural = new Intl.PluralRules(language);
  const translate = t as unknown as (key: unknown, options?: Record<string, unknown>) => unknown;
  function contentT(key: unknown, options?: Record<string, unknown>): unknown {
    if (typeof key !== 'string') return translate(key, options);
    let text = Object.hasOwn(texts, key) ? texts[key] : undefined;
    const count = options?.count;
    if (text === undefined && typeof count === 'number') {
      text = texts[`${key}_${plural.select(count)}`] ?? texts[`${key}_other`];
    }
    if (text === undefined) return translate(key, options);
    if (!options && !text.includes('{{')) return text;
    return translate(OVERRIDE_KEY, { ...options, defaultValue: text });
  }
  return contentT as unknown as TFunction;
}
