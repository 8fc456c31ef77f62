import type { Plugin } from 'vite';
import { shippedTextAsset } from '../locales';
import { ALL_TRANSLATIONS } from '../locales/all';

/**
 * Writes each shipped language but English to the client build as one JSON dictionary
 * (dist/client/i18n/<language>.json), where the worker's ASSETS binding reads it at the first
 * request in that language (worker/translations/source.ts). English stays in the worker's
 * code, the fallback when a load fails (SPEC.md §9).
 */
export function shippedTextAssets(): Plugin {
  return {
    name: 'geofunnel-shipped-text',
    apply: 'build',
    generateBundle() {
      for (const [language, dictionary] of Object.entries(ALL_TRANSLATIONS)) {
        if (language === 'en') continue;
        this.emitFile({
          type: 'asset',
          fileName: shippedTextAsset(language).slice(1),
          source: JSON.stringify(dictionary),
        });
      }
    },
  };
}
