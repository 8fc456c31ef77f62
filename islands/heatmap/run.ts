import type { HeatmapPage } from '../../shared/analytics/heatmap';
import { adToolsAllowed, type ConsentState } from '../../shared/analytics/tracking';
import { type ConsentAnswer, effectiveConsent } from '../pixels/consent';
import { type ClarityGlobals, installClarity } from './clarity';

export interface HeatmapDeps {
  /** Where Clarity's global lives: the page's window. */
  win: ClarityGlobals;
  /** Adds a script once; rejects when it cannot load. */
  loadScript(src: string): Promise<void>;
  /** The consent banner's answer (islands/pixels/consent.ts). */
  consent: {
    known(): ConsentAnswer | null;
    listen(listener: (answer: ConsentAnswer | null) => void): () => void;
  };
}

function start(heatmap: HeatmapPage, deps: HeatmapDeps): void {
  deps.loadScript(installClarity(deps.win, heatmap)).catch(() => {
    // Blocked or offline: the calls stay in the stub's queue and the page goes on.
  });
}

/**
 * The page's heatmap under the ad pixels' consent rule: at once where consent is not required or
 * was given, after Accept on this page where it is pending, never after Decline.
 */
export function runHeatmap(heatmap: HeatmapPage, consent: ConsentState, deps: HeatmapDeps): void {
  const state = effectiveConsent(consent, deps.consent.known());
  if (adToolsAllowed(state)) {
    start(heatmap, deps);
    return;
  }
  if (state === 'denied') return;
  const stop = deps.consent.listen((answer) => {
    if (answer === null) return;
    stop();
    if (answer === 'granted') start(heatmap, deps);
  });
}
