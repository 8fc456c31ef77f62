import type { TFunction } from 'i18next';
import { type ErrorTextKey, type ErrorTexts, errorTranslationKey } from '../shared/api/error-text';

/**
 * The translated texts of the error keys an island may show (shared/api/error-text.ts). Islands
 * never load translations: the screen hands them exactly the texts they need.
 */
export function translatedErrorTexts<K extends ErrorTextKey>(
  t: TFunction,
  keys: readonly K[],
): ErrorTexts<K> {
  return Object.fromEntries(keys.map((key) => [key, t(errorTranslationKey(key))])) as ErrorTexts<K>;
}
