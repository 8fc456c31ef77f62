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
 * Sets up Clarity as its snippet does and queues what the recorder reads first: `consent`
 * (Clarity's cookies are allowed: this runs only where the visitor said yes or consent is not
 * required, run.ts), then the page's tags (`set`). Returns the loader's URL to add.
 */
export function installClarity(win: ClarityGlobals, heatmap: HeatmapPage): string {
  win.clarity ??= clarityStub();
  win.clarity('consent');
  for (const [key, value] of heatmap.tags) win.clarity('set', key, value);
  return clarityScriptUrl(heatmap.clarity);
}
