import { isPaywallScreen } from '../screens';

/**
 * The heatmap, SPEC.md §7's "heatmap script": Microsoft Clarity (heatmaps of clicks and scrolls,
 * and session recordings), by its project id (CLARITY_PROJECT_ID). Clarity rather than Hotjar:
 * it has no session cap (Hotjar's plans sample a funnel's traffic), it masks what is typed in
 * fields by default, and its custom tags (`clarity('set', key, value)`) are a filter of every
 * heatmap and recording, which is how a marketer reads it per variant. Hotjar's equivalent,
 * `hj('identify', id, attributes)`, wants a user id, which we do not give away.
 *
 * What the worker and the page share: the project id's shape, where the heatmap never loads, and
 * the tags a page sends. The tags name the funnel the visitor sees, never the visitor.
 */

/** A Clarity project id as its dashboard shows it (Settings → Setup): letters and digits. */
const PROJECT_ID = /^[a-z0-9]{1,32}$/i;

/**
 * The configured project id, or null when unset, blank or not an id (which would otherwise end
 * up in the script's address).
 */
export function clarityProjectId(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return PROJECT_ID.test(trimmed) ? trimmed : null;
}

/** Clarity's loader for a project; it adds the recorder from scripts.clarity.ms itself. */
export function clarityScriptUrl(projectId: string): string {
  return `https://www.clarity.ms/tag/${encodeURIComponent(projectId)}`;
}

/**
 * The screens the heatmap never loads on: every checkout and paywall (`checkout-test` included),
 * where card fields are. Not loading there at all, rather than trusting Clarity's masking of
 * the providers' frames, keeps a recorder away from the card entry whatever its settings.
 * The test gateway's pages are no funnel screen and never load it either.
 */
export function heatmapExcluded(screen: string): boolean {
  return isPaywallScreen(screen);
}

/**
 * On every element that shows what a visitor typed or was told about a person (the email field,
 * the phone field, the located number): Clarity records such an element's text masked, whatever
 * the project's masking setting says. Its documented attribute, spelled as its documentation does.
 */
export const HEATMAP_MASK = { 'data-clarity-mask': 'True' } as const;

/** One custom tag, `clarity('set', key, value)`. */
export type HeatmapTag = readonly [key: string, value: string];

/** What a page's heatmap needs (PageAnalytics.heatmap). */
export interface HeatmapPage {
  /** The Clarity project id. */
  clarity: string;
  /** The tags the session gets, in order. */
  tags: HeatmapTag[];
}

/** What the tags are made of: the page's funnel facts, as its events carry them. */
export interface HeatmapFacts {
  screen: string;
  /** The split's variant (the events' `variant`). */
  variant: string;
  flow: string;
  route: string;
  /** The visit's source: meta, tiktok, organic, … (the events' `traffic_source`). */
  source: string;
  configVersion: string;
  /** The visitor's other experiments and their variants, one per layer. */
  experiments: readonly { experiment: string; variant: string }[];
}

/** The prefix of an experiment's tag: `exp_price_test` = `higher`. */
const EXPERIMENT_TAG_PREFIX = 'exp_';

/** Longer keys and values are cut: no id of ours comes near it. */
export const HEATMAP_TAG_MAX = 100;

/**
 * The session's tags, named as the events' properties are so a heatmap and an Amplitude chart
 * read alike. Only ids a marketer configured and the screen's id: nothing a visitor typed
 * or is (no uuid, email or phone number). Empty values are left out.
 */
export function heatmapTags(facts: HeatmapFacts): HeatmapTag[] {
  const tags: [string, string][] = [
    ['screen_name', facts.screen],
    ['variant', facts.variant],
    ['flow', facts.flow],
    ['route', facts.route],
    ['traffic_source', facts.source],
    ['config_version', facts.configVersion],
    ...facts.experiments.map(({ experiment, variant }): [string, string] => [
      `${EXPERIMENT_TAG_PREFIX}${experiment}`,
      variant,
    ]),
  ];
  const seen = new Set<string>();
  const kept: HeatmapTag[] = [];
  for (const [key, value] of tags) {
    const shortKey = key.slice(0, HEATMAP_TAG_MAX);
    if (value === '' || seen.has(shortKey)) continue;
    seen.add(shortKey);
    kept.push([shortKey, value.slice(0, HEATMAP_TAG_MAX)]);
  }
  return kept;
}
