import { subscribe } from '../analytics/listeners';
import { loadExternalScript } from '../kit/external-script';
import { $consentAnswer, knownConsentAnswer } from './consent';
import type { LedgerStorage } from './fired';
import { type PixelDeps, type PixelSettings, runPixels } from './run';

function localStorageOrNull(): LedgerStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

let started = false;

/**
 * Starts this page's ad pixels once. Imported lazily, after the page is idle, so no
 * pixel code is on the page's critical path; the networks' scripts are added by this nonce'd
 * module's code, which the page's CSP admits through 'strict-dynamic'. Never throws.
 */
export function startPixels(analytics: PixelSettings): void {
  if (started) return;
  started = true;
  try {
    runPixels(analytics, {
      win: window as unknown as PixelDeps['win'],
      loadScript: (src) => loadExternalScript(src),
      storage: localStorageOrNull(),
      subscribe,
      consent: {
        known: () => knownConsentAnswer(),
        listen: (listener) => $consentAnswer.listen(listener),
      },
    });
  } catch (error) {
    console.warn('[pixels] did not start', error);
  }
}

export type { PixelSettings } from './run';
