import type { TFunction } from 'i18next';
import type { ConsentState, PixelIds } from '../../shared/analytics/tracking';
import { Island } from './Island';

/** Where the consent form posts when no script runs (worker/routes/consent.ts). */
export const CONSENT_PATH = '/consent';

/**
 * Only on pages that ask: a bar in the flow under the top bar, never over the screen's Continue
 * button (SPEC.md §9: fixed 24px above the bottom edge). Inlined only where the banner shows.
 */
const CONSENT_CSS = `.consent{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;
width:calc(100% - 32px);max-width:343px;margin:12px auto 0;padding:12px;border-radius:12px;
border:1px solid rgba(16,24,40,.16);background:var(--surface);font-size:14px;line-height:1.4}
.consent__text{flex:1 1 190px;margin:0}
.consent__actions{display:flex;flex:1 1 auto;gap:8px}
.consent__button{flex:1 1 0;min-height:44px;padding:6px 12px;border:1px solid var(--ink);
border-radius:12px;background:var(--surface);color:var(--ink);font:600 15px/1.2 var(--font);
cursor:pointer}`.replace(/\n/g, '');

/**
 * The ad tools and the heatmap wait for the visitor's answer, and there is at least one to wait.
 */
export function asksForConsent(attribution: { consent: ConsentState; pixels: PixelIds }): boolean {
  const { meta, tiktok, googleAds, clarity } = attribution.pixels;
  return attribution.consent === 'pending' && Boolean(meta || tiktok || googleAds || clarity);
}

/**
 * What the banner asks for: the ad tools' sentence where one is configured, the heatmap's where
 * Clarity is, so a visitor consents to what actually runs.
 */
function consentText(t: TFunction, pixels: PixelIds): string {
  const { meta, tiktok, googleAds, clarity } = pixels;
  return [
    meta || tiktok || googleAds ? t('consent.text') : null,
    clarity ? t('consent.heatmap') : null,
  ]
    .filter((sentence) => sentence !== null)
    .join(' ');
}

/** The consent banner (islands/ConsentBanner.tsx) with its copy and styles. */
export function ConsentBar({ t, pixels }: { t: TFunction; pixels: PixelIds }) {
  return (
    <div className="consent-bar">
      <style dangerouslySetInnerHTML={{ __html: CONSENT_CSS }} />
      <Island
        name="ConsentBanner"
        props={{
          label: t('consent.label'),
          text: consentText(t, pixels),
          accept: t('consent.accept'),
          decline: t('consent.decline'),
          action: CONSENT_PATH,
        }}
      />
    </div>
  );
}
