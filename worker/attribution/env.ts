/** The worker variables of attribution and the ad tools (wrangler.toml [vars]; docs/operate.md, "Settings"). */
export interface AttributionBindings {
  /**
   * The app's origins `?appDomain=` may name, comma-separated; the first is the default. Unset,
   * the funnel's own origin is the app domain.
   */
  APP_DOMAINS?: string;
  /** Where consent is required: ISO country codes, `*` or empty (worker/attribution/consent.ts). */
  CONSENT_COUNTRIES?: string;
  /** The Meta pixel id; unset, the pixel never loads (also the Conversions API's pixel). */
  META_PIXEL_ID?: string;
  /** The TikTok pixel id; unset, the pixel never loads (also the Events API's pixel). */
  TIKTOK_PIXEL_ID?: string;
  /** The Google Ads tag id `AW-…`; unset, gtag never loads. */
  GOOGLE_ADS_ID?: string;
  /** The label of the Google Ads purchase conversion (`send_to: AW-…/label`). */
  GOOGLE_ADS_CONVERSION_LABEL?: string;
  /**
   * The Microsoft Clarity project id; unset (or not letters and digits), the heatmap never loads
   * (shared/analytics/heatmap.ts).
   */
  CLARITY_PROJECT_ID?: string;
  /** AppsFlyer's web dev key; unset, the smart script is not served. */
  APPSFLYER_DEV_KEY?: string;
}
