import { createInstance, type TFunction } from 'i18next';
import common from '../../../locales/en/common.json';
import kit from '../../../locales/en/kit.json';

/** The English copy the kit's pieces are rendered with on the server. */
export function englishT(): TFunction {
  const i18n = createInstance({
    resources: { en: { translation: { ...common, ...kit } } },
    lng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  void i18n.init();
  return i18n.t;
}
