import type { ContentDocument, ScreenBody, ScreenContent } from './config/content';

/**
 * A screen's content with a content variant laid over it (shared/config/content.ts): what the
 * worker renders for a visitor the variant is shown to, what its checks hold the variant to, and
 * what the console's preview draws. Plain code, so the console's bundle takes it without zod.
 */

/**
 * A screen's content with `variant` laid over it (absent or unknown: the screen's own): the
 * variant's sections if it lists them, its texts over the screen's, language by language, its
 * picture if it names one.
 */
export function screenBodyOf(own: ScreenContent, variant: string | null): ScreenBody {
  const laid =
    variant !== null && own.variants && Object.hasOwn(own.variants, variant)
      ? own.variants[variant]
      : undefined;
  if (!laid) return { sections: own.sections, copy: own.copy, picture: own.picture };
  const copy: NonNullable<ScreenBody['copy']> = { ...own.copy };
  for (const [language, texts] of Object.entries(laid.copy ?? {})) {
    copy[language] = { ...copy[language], ...texts };
  }
  return { sections: laid.sections ?? own.sections, copy, picture: laid.picture ?? own.picture };
}

/**
 * The content of the screen a flow names `ref`: a screen in code's, or a composed screen's own
 * (its sections, copy, picture and variants); absent, none.
 */
export function contentOfRef(content: ContentDocument, ref: string): ScreenContent | undefined {
  if (Object.hasOwn(content.screens, ref))
    return content.screens[ref as keyof ContentDocument['screens']];
  const composed = content.composed;
  return composed && Object.hasOwn(composed, ref) ? composed[ref] : undefined;
}
