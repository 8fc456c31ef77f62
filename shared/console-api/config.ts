/**
 * What the marketers' console (`/console`) and the worker say to each other: the JSON of
 * `/console/api/*`, one file per area of this folder; here, the config document's state, check,
 * publish and rollback. The worker's side is worker/console/, the browser's console/. Plain
 * types and constants only: the worker validates what it is sent (shared/config/), and the
 * console trusts what the worker it is served by answers.
 */

import type { ContentDocument } from '../config/content';
import type { ExperimentsDocument } from '../config/experiments';
import type { FlowsDraft } from '../config/flows';
import type { RoutingDocument } from '../config/routing';
import type { SplitDocument } from '../config/split';
import type { ContentPreviewRoute } from './content';
import type { ApprovalReason } from './draft';
import type { FieldError } from './errors';
import type { LanguageNote } from './languages';
import type { BreakGlassRequest, Change, VersionSummary } from './versions';

/** Where the console's JSON calls live. */
export const CONSOLE_API = {
  /** GET: what is live, who you are, what can be picked. */
  state: '/console/api/state',
  /** POST {base, document}: the checks and the diff of a publish, writing nothing. */
  check: '/console/api/check',
  /** POST {base, document, note}: publishes `document` as the next version. */
  publish: '/console/api/publish',
  /** POST {base, seq, note}: publishes an earlier version's document again, as a new version. */
  rollback: '/console/api/rollback',
  /** GET: every version, newest first, each with its diff against the one before. */
  versions: '/console/api/versions',
  /** POST RouteTestRequest: which route a visitor would get, and why (RouteTestAnswer). */
  routeTest: '/console/api/route-test',
  /**
   * POST VisitorGetsRequest: what the edge serves a described visitor under the draft or the
   * live config, by the edge's own code (VisitorGetsAnswer).
   */
  visitorGets: '/console/api/visitor-gets',
  /** GET: the last 7 days' first visits and steps reached by route (RouteVisitsAnswer). */
  routeVisits: '/console/api/route-visits',
  /**
   * What the ads cost per day, source and campaign (ad-costs.ts): POST a CSV file or
   * `{ rows }` as JSON (adCostsRequest), GET `?from=&to=` (AdCostsAnswer), DELETE `?day=&source=&campaign=` one row.
   */
  adCosts: '/console/api/ad-costs',
} as const;

/**
 * The media type of an ad costs file POSTed to CONSOLE_API.adCosts: none a cross-site form can
 * send (worker/request/console-guard.ts).
 */
export const AD_COSTS_CSV_TYPE = 'text/csv';

/** GET `/console/preview/{variant}`: a marketer's preview of one variant (no assignment). */
export const CONSOLE_PREVIEW_PATH = '/console/preview';

/** The one document a marketer edits: the four KV keys the edge reads. */
export interface ConfigDocument {
  split: SplitDocument;
  /** As the console drafts it: the screen ids are checked when it is published. */
  flows: FlowsDraft;
  routing: RoutingDocument;
  experiments: ExperimentsDocument;
  /** What the screens show (shared/config/content.ts): their sections and copy. */
  content: ContentDocument;
}

/** Why a publish starts a new phase of the experiment; null when it does not. */
export interface PhaseChange {
  from: number;
  to: number;
  /** One sentence for the marketer, e.g. 'the weights of lp1, lp2 change'. */
  reason: string;
}

/** A new phase of one experiment of the `experiments` section, as PhaseChange is the split's. */
export interface ExperimentPhaseChange extends PhaseChange {
  /** The experiment's id. */
  experiment: string;
}

/** A screen a flow may list, for the console's picker. */
export interface ScreenChoice {
  id: string;
  /** 'landing', 'searching', 'signup', 'checkout', 'paywall', 'upsell', 'end', 'other'. */
  kind: string;
}

export interface ConsoleState {
  author: string;
  /** What the edge reads now (KV, or the defaults in code where a key is absent). */
  live: ConfigDocument;
  /** The last published version; null before the first publish. */
  head: VersionSummary | null;
  /** Set when KV no longer holds the head's document (written around the console and the CLI). */
  drift: string | null;
  screens: ScreenChoice[];
  /** Each variant's preview link (CONSOLE_PREVIEW_PATH), by variant key. */
  previews: Record<string, string>;
  /**
   * Set where the console may run the 15-minute check on demand (development and staging:
   * shared/console-api/alerts.ts CONSOLE_GUARDRAILS_CHECK_PATH).
   */
  rehearsal?: true;
  /**
   * Set where the local simulator runs (development only: shared/console-api/simulation.ts), so
   * the console can send test traffic to an experiment.
   */
  simulation?: true;
}

/** POST check and publish. `base`: the head seq the edit started from (null: none yet). */
export interface PublishRequest extends BreakGlassRequest {
  base: number | null;
  document: ConfigDocument;
  note?: string;
  /**
   * The shared draft's revision this publishes (shared/console-api/draft.ts): its approval, if
   * any, is recorded, and the draft starts again from the new version.
   */
  draft?: number;
}

export interface RollbackRequest extends BreakGlassRequest {
  base: number | null;
  /** The version whose document is published again. */
  seq: number;
  note?: string;
  /** The shared draft's revision the console showed: it starts again from the new version. */
  draft?: number;
}

/** 200 from check: what the publish would change. */
export interface CheckAnswer {
  ok: true;
  diff: Change[];
  /** The split's new phase. */
  phase: PhaseChange | null;
  /** The experiments whose publish starts a new phase, each with why; absent, none. */
  experimentPhases?: ExperimentPhaseChange[];
  /**
   * What publishes but is likely a mistake, each at its path: a route an earlier one already
   * catches whole (worker/routing/warnings.ts), what the experiments' validator warns of
   * (`experiments.experiments.pw-us...`). Never a refusal.
   */
  warnings?: FieldError[];
  /**
   * What visitors in each other language will see of the English changes this publish makes to
   * the content (worker/content/languages.ts); absent, none. Never a refusal.
   */
  languages?: LanguageNote[];
  /**
   * The screens whose content the publish changes for some visitors, as the edge serves them
   * (worker/console/screen-changes.ts): the review draws each live and after publishing, as the
   * route that serves it; absent from an older worker.
   */
  screens?: ScreenChange[];
  /**
   * Whether this worker requires a second person's approval (PUBLISH_APPROVAL), and which of
   * the changes need it; absent from an older worker.
   */
  approval?: { required: boolean; reasons: ApprovalReason[] };
}

/**
 * One screen a publish changes for the visitors of one or more routes, worked out on the worker
 * by the code the edge serves with (worker/experiments/config/visitor-gets.ts), live and draft.
 */
export interface ScreenChange {
  /** The screen as flows name it: one in code, or a composed one. */
  screen: string;
  /** The routes whose visitors see it change, the first the one it is drawn as; none: no route walks it yet. */
  routes: string[];
  /** The experiment arm whose visitors get the change on the first route, if only they do. */
  arm: { experiment: string; variant: string } | null;
  /** What those visitors get now; null: a screen the publish composes, nothing of it live. */
  live: ScreenSide | null;
  /** What they get after publishing. */
  draft: ScreenSide;
  /** The languages whose texts change (its copy, its picture's alt text): where it shows. */
  languages: string[];
}

/** One side of a screen's change: the content variant it shows, drawn as the route serves it. */
export interface ScreenSide {
  /** The content variant shown; null: the screen's own content. */
  variant: string | null;
  /** The route as the content preview takes it, with the content variant of each screen. */
  route: ContentPreviewRoute;
}

/** 200 from publish and rollback. */
export interface PublishAnswer {
  ok: true;
  version: VersionSummary;
}
