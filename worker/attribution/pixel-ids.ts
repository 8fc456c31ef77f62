import { clarityProjectId } from '../../shared/analytics/heatmap';
import type { PixelIds } from '../../shared/analytics/tracking';
import type { AttributionBindings } from './env';

/** A configured id, or null for unset or blank. */
function configured(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** The ad networks' and heatmap's ids this deployment is configured with. */
export function pixelIds(env: AttributionBindings): PixelIds {
  const googleAds = configured(env.GOOGLE_ADS_ID);
  return {
    meta: configured(env.META_PIXEL_ID),
    tiktok: configured(env.TIKTOK_PIXEL_ID),
    googleAds: googleAds
      ? { id: googleAds, conversionLabel: configured(env.GOOGLE_ADS_CONVERSION_LABEL) }
      : null,
    appsflyer: configured(env.APPSFLYER_DEV_KEY),
    clarity: clarityProjectId(env.CLARITY_PROJECT_ID),
  };
}
