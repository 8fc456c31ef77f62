import type { TFunction } from 'i18next';
import type { Arrangement } from '../../screens/kit/arrangement';
import type { ShownPicture } from '../../screens/types';
import type { ScreenRef } from '../../shared/composed-screens';
import type { ContentDocument, ReviewRating } from '../../shared/config/content';
import { contentOfRef, screenBodyOf } from '../../shared/content-body';
import { answerKeysIn, fillAnswers } from '../../shared/quiz/answer-text';
import type { Answers } from '../../shared/quiz/answers';
import { type AnsweredQuestion, takesAnswer } from '../../shared/quiz/question';

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
  /**
   * Its copy says this visitor's answers (`{{answer.who}}`, shared/quiz/answer-text.ts): the
   * page is drawn for them alone, and kept for no one else.
   */
  personal?: true;
}

/** A screen's content as worked out once, with what filling a visitor's answers takes. */
interface Compiled {
  shown: ShownContent;
  /** The screen's texts in the language, when one of them says an answer. */
  answerTexts?: Readonly<Record<string, string>>;
}

type PerTranslator = WeakMap<TFunction, Compiled>;

const compiled = new WeakMap<ContentDocument, Map<string, PerTranslator>>();

/** Each content's answered questions by their key, as the answers are kept (and read). */
const questionsByKey = new WeakMap<ContentDocument, Record<string, AnsweredQuestion>>();

export function askedByKey(content: ContentDocument): Record<string, AnsweredQuestion> {
  let byKey = questionsByKey.get(content);
  if (!byKey) {
    byKey = {};
    for (const asked of Object.values(content.questions ?? {})) {
      if (takesAnswer(asked)) byKey[asked.key] = asked;
    }
    questionsByKey.set(content, byKey);
  }
  return byKey;
}

export function shownContent(
  content: ContentDocument,
  /** The screen as the flow names it: a composed one shows its own content. */
  screen: ScreenRef,
  language: string,
  t: TFunction,
  /** The content variant an experiment shows this visitor (worker/funnel/flow.ts FunnelShape), else null. */
  variant: string | null = null,
  /** The visitor's quiz answers (worker/request/kept-answers.ts), which its copy may say. */
  answers: Answers = {},
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
  let entry = byTranslator.get(t);
  if (!entry) {
    entry = compile(content, own, variant, language, t);
    byTranslator.set(t, entry);
  }
  const { shown, answerTexts } = entry;
  if (!answerTexts || Object.keys(answers).length === 0) return shown;
  const fill = (text: string) => fillAnswers(text, answers, askedByKey(content), language);
  return { ...shown, t: withTexts(t, answerTexts, language, fill), personal: true };
}

/**
 * A screen's content for one variant, language and translator: its arrangement, picture and
 * rating, and a translator with its copy (an answer it says filled with the placeholder's
 * fallback, as for a visitor who gave none).
 */
function compile(
  content: ContentDocument,
  own: NonNullable<ReturnType<typeof contentOfRef>>,
  variant: string | null,
  language: string,
  t: TFunction,
): Compiled {
  const body = screenBodyOf(own, variant);
  const texts = body.copy?.[language];
  const saysAnswers = texts && Object.values(texts).some((text) => answerKeysIn(text).length > 0);
  const unanswered = (text: string) => fillAnswers(text, {}, askedByKey(content), language);
  const shown: ShownContent = {
    arrangement: body.sections ?? null,
    t:
      texts && Object.keys(texts).length > 0
        ? withTexts(t, texts, language, saysAnswers ? unanswered : undefined)
        : t,
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
  return saysAnswers ? { shown, answerTexts: texts } : { shown };
}

/** A key no copy file has: asked with a default, i18next interpolates the default. */
const OVERRIDE_KEY = '__content_override__';

/**
 * `t` with `texts` (copy key → text) laid over it. A counted key takes the language's plural
 * form (`_one`, `_few`…), else `_other`; placeholders are filled by i18next as in the bundled
 * copy, after `fill` (a visitor's answers) where given. Text without placeholders asked without
 * options is returned as it is.
 */
function withTexts(
  t: TFunction,
  texts: Readonly<Record<string, string>>,
  language: string,
  fill?: (text: string) => string,
) {
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
    if (fill) text = fill(text);
    if (!options && !text.includes('{{')) return text;
    return translate(OVERRIDE_KEY, { ...options, defaultValue: text });
  }
  return contentT as unknown as TFunction;
}
