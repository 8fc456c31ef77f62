import { clarityScriptUrl, type HeatmapPage } from '../../shared/analytics/heatmap';

/** The `clarity` of Clarity's snippet: it queues each call in `q` until the recorder takes it. */
export interface ClarityFunction {
  (...args: unknown[]): void;
  q?: unknown[][];
}

export interface ClarityGlobals {
  clarity?: ClarityFunction;
}

function clarityStub(): ClarityFunction {
  const clarity: ClarityFunction = (...args) => {
    clarity.q ??= [];
    clarity.q.push(args);
  };
  return clarity;
}

/**
 * Clarity's consent signal (its Consent API v2, which replaces the older `consent` call): this
 * runs only where the visitor said yes or consent is not required (run.ts), so its analytics
 * storage is granted; its ad storage, which lets Microsoft's advertising use the data, is not:
 * the banner asks to record how the page is used, not to advertise with it.
 */
const CLARITY_CONSENT = { ad_Storage: 'denied', analytics_Storage: 'granted' } as const;

/**
 * Sets up Clarity as its snippet does and queues what the recorder reads first: the consent
 * signal, then the page's tags (`set`). Returns the loader's URL to add.
 */
export function installClarity(win: ClarityGlobals, heatmap: HeatmapPage): string {
  win.clarity ??= clarityStub();
  win.clarity('consentv2', CLARITY_CONSENT);
  for (const [key, value] of heatmap.tags) win.clarity('set', key, value);
  return clarityScriptUrl(heatmap.clarity);
}
