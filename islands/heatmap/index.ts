import type { PageAnalytics } from '../../shared/analytics/tracking';
import { loadExternalScript } from '../kit/external-script';
import { $consentAnswer, knownConsentAnswer } from '../pixels/consent';
import type { ClarityGlobals } from './clarity';
import { runHeatmap } from './run';

let started = false;

/**
 * Starts this page's heatmap once. Imported lazily with the tracker, once the page has loaded
 * and the main thread is idle (islands/analytics/start.ts), and only on a page the worker gave a
 * heatmap; Clarity's loader is added by this nonce'd module's code, which the page's CSP admits
 * through 'strict-dynamic'. Never throws.
 */
export function startHeatmap(analytics: Pick<PageAnalytics, 'consent' | 'heatmap'>): void {
  if (started || !analytics.heatmap) return;
  started = true;
  try {
    runHeatmap(analytics.heatmap, analytics.consent, {
      win: window as unknown as ClarityGlobals,
      loadScript: (src) => loadExternalScript(src),
      consent: {
        known: () => knownConsentAnswer(),
        listen: (listener) => $consentAnswer.listen(listener),
      },
    });
  } catch (error) {
    console.warn('[heatmap] did not start', error);
  }
}
