import type { PageState } from '../../../islands/protocol';
import { heatmapExcluded } from '../../../shared/analytics/heatmap';
import { COLLECTOR_PATH, type PageVitals, type PixelIds } from '../../../shared/analytics/tracking';
import { heatmapPage } from '../../attribution/heatmap-page';
import { pageVitals } from '../../collector/vitals-sample';
import type { Bindings } from '../../env';
import { isProduction } from '../../environment';
import type { Attribution } from '../../middleware/attribution';
import { armsCountedOn } from '../../middleware/exposure';
import type { PageVisit, Shown } from './page-visit';

const NO_AD_TOOLS: PixelIds = {
  meta: null,
  tiktok: null,
  googleAds: null,
  appsflyer: null,
  clarity: null,
};

/**
 * What the page hands the ad tools and the tracker. A marketer's preview (worker/funnel/preview.ts)
 * is no visit: no pixel loads (so no consent banner asks either) and the tracker sends nothing,
 * nor does any page while ANALYTICS is 'off'.
 */
export function pageAttribution(attribution: Attribution, preview: boolean, env: Bindings) {
  return {
    attribution: preview ? { ...attribution, pixels: NO_AD_TOOLS } : attribution,
    collector: preview || env.ANALYTICS === 'off' ? null : COLLECTOR_PATH,
  };
}

/**
 * The tools the page's script may start: a screen with card fields, or one composed from such a
 * screen, never names the heatmap's project (shared/analytics/heatmap.ts), as the security
 * headers refuse it there (worker/middleware/security-headers.ts heatmapMayRun). The consent
 * banner still names the heatmap there: an answer given on a checkout holds for the screens
 * after it.
 */
function pagePixels(pixels: PixelIds, { screen }: Shown): PixelIds {
  const excluded = heatmapExcluded(screen);
  return excluded && pixels.clarity !== null ? { ...pixels, clarity: null } : pixels;
}

/**
 * The page's state for its islands and tracker (islands/protocol.ts PageState), read from the
 * page's visit: nearly every variable the page middleware set goes into it.
 */
export function pageState(
  visit: PageVisit,
  page: {
    shown: Shown;
    next: string | null;
    account: PageState['account'];
    collector: string | null;
    attribution: Attribution;
  },
): PageState {
  const { vars } = visit;
  const { shown, attribution } = page;
  // The analytics name a composed screen by the screen in code it behaves as (SPEC.md §3).
  const { screen } = shown;
  const flow = vars.flow.name;
  const variant = vars.variant.key;
  const route = vars.route.id;
  const source = vars.firstTouch.source;
  const configVersion = vars.config.version;
  return {
    screen,
    next: page.next,
    flow,
    variant,
    configVersion,
    route,
    source,
    inApp: vars.inApp,
    account: page.account,
    analytics: {
      visitorId: vars.visitorId,
      // Real events only in production: a staging worker's carry `_test`, like development's.
      production: isProduction(visit.env),
      collector: page.collector,
      ...attribution,
      pixels: pagePixels(attribution.pixels, shown),
      heatmap: heatmapPage({
        clarity: attribution.pixels.clarity,
        consent: attribution.consent,
        screen,
        variant,
        flow,
        route,
        source,
        configVersion,
        assignments: vars.experiments.assignments,
      }),
      ...vitalsOf(visit, page.collector),
    },
  };
}

/** A sampled visitor's page measures its vitals; a preview or a page without analytics never. */
function vitalsOf(visit: PageVisit, collector: string | null): { vitals?: PageVitals } {
  if (collector === null) return {};
  const { vars } = visit;
  const vitals = pageVitals(visit.env, vars.visitorId, () =>
    armsCountedOn(vars.experiments, vars.config, visit.path),
  );
  return vitals === undefined ? {} : { vitals };
}
