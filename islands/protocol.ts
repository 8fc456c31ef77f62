import type { PageAnalytics } from '../shared/analytics/tracking';
import type { SignedUpAccount } from '../shared/api/form-sign-up';
import type { InAppBrowser } from '../shared/in-app-browser';

/**
 * The islands protocol (ARCHITECTURE.md): shared by the worker, which renders the markers, and
 * the browser, which hydrates them. Each island is one element carrying these attributes.
 */
export const ISLAND_ATTR = 'data-island';
export const ISLAND_PROPS_ATTR = 'data-props';
export const ISLAND_PREFIX_ATTR = 'data-prefix';
/**
 * On the marker of an island whose server HTML does nothing without its script (a button no form
 * submits, a card form only the provider's script fills): if its script cannot load, the page
 * shows a message with Reload in its place (islands/hydrate.ts). An island without it keeps its
 * server HTML, which works without script (a form the worker answers) or only shows something.
 */
export const ISLAND_SCRIPT_ONLY_ATTR = 'data-script-only';

/** The words, in the visitor's language, shown in place of an island whose script did not load. */
export interface IslandFailureCopy {
  message: string;
  reload: string;
}

/** What the worker tells the page's script about the screen it rendered. */
export interface PageState {
  screen: string;
  /** URL of the next screen in the flow (query kept), or null on the last screen. */
  next: string | null;
  flow: string;
  variant: string;
  configVersion: string;
  /** The visitor's route (worker/routing/) and the source of their visit: on every event. */
  route: string;
  source: string;
  /** The ad app whose own browser shows the page, or null in any other browser. */
  inApp: InAppBrowser | null;
  /**
   * The account the worker created from a signup screen's form posted without script, on the
   * screen after it (once): the islands take it over as their own sign-up would have left it.
   */
  account?: SignedUpAccount;
  /**
   * The visitor's quiz answers as every event carries them (shared/quiz/answers.ts
   * analyticsAnswers: choice values, numbers, days; a text never); absent without any.
   */
  answers?: Readonly<Record<string, string | number>>;
  /** What the analytics tracker needs. */
  analytics: PageAnalytics;
  /**
   * On a page that may expose its visitor to an experiment: the page's signed ticket, which the
   * boot script sends back once the islands have hydrated (islands/exposure-confirmation.ts), so
   * the visitor's exposures count (docs/statistics.md, "What is counted").
   */
  exposureTicket?: string;
}
