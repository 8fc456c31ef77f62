import { loadExternalScript } from '../kit/external-script';
import {
  $googleButton,
  type GoogleButtonState,
  type GoogleSetupProblem,
  INITIAL_GOOGLE_BUTTON,
} from '../stores/google-button';

/** Google Identity Services' client library. */
export const GIS_SCRIPT_URL = 'https://accounts.google.com/gsi/client';
/** SPEC.md §4, §9: whether the script is ready is polled every 100 ms. */
export const SCRIPT_READY_POLL_MS = 100;
/** SPEC.md §4, §9: the button is preloaded 1 s after the script is ready. */
export const BUTTON_PRELOAD_DELAY_MS = 1000;
/** SPEC.md §9: the Google button is 343 px wide (GIS accepts 40 to 400). */
export const GOOGLE_BUTTON_WIDTH = 343;

/**
 * GIS draws its button at a fixed width; on a phone narrower than the 343 px content width
 * (SPEC.md §9 mobile 350 less 2 × 16 padding) it would stick out sideways, so it takes the
 * width its place has, up to 343.
 */
export function googleButtonWidth(available: number): number {
  return available > 0 ? Math.min(GOOGLE_BUTTON_WIDTH, Math.floor(available)) : GOOGLE_BUTTON_WIDTH;
}
/** A script that loaded but never offered its API within this time counts as not available. */
export const SCRIPT_READY_GIVE_UP_MS = 10_000;

/** What GIS hands the callback: `credential` is the ID token (a JWT). */
export interface CredentialResponse {
  credential?: string;
  select_by?: string;
}

/** The part of `google.accounts.id` we use (developers.google.com/identity/gsi/web/reference/js-reference). */
export interface GoogleAccountsId {
  initialize(config: {
    client_id: string;
    callback: (response: CredentialResponse) => void;
    context?: 'signin' | 'signup' | 'use';
    ux_mode?: 'popup' | 'redirect';
    auto_select?: boolean;
  }): void;
  renderButton(
    parent: HTMLElement,
    options: {
      type: 'standard' | 'icon';
      theme?: 'outline' | 'filled_blue' | 'filled_black';
      size?: 'large' | 'medium' | 'small';
      text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
      shape?: 'rectangular' | 'pill' | 'circle' | 'square';
      logo_alignment?: 'left' | 'center';
      width?: number;
      locale?: string;
    },
  ): void;
}

/** Resolves once the page has loaded (now, if it already has). */
function pageLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/**
 * GIS is added only after the page's load event: a script added before it would hold the event
 * back, and with it the preloader's removal (SPEC.md §2), for as long as Google takes to answer.
 */
async function loadGisAfterPageLoad(src: string): Promise<void> {
  await pageLoaded();
  await loadExternalScript(src);
}

function pageGoogle(): GoogleAccountsId | undefined {
  const google = (globalThis as { google?: { accounts?: { id?: GoogleAccountsId } } }).google;
  return google?.accounts?.id;
}

export interface GoogleButtonSetup {
  /** The worker's GOOGLE_CLIENT_ID; empty when it has none. */
  clientId: string;
  /** Where GIS renders its button. */
  container: HTMLElement;
  /** The page language, for the button's text. */
  locale: string;
  /** Called by GIS when the visitor has chosen an account (or with nothing, SPEC.md §5). */
  onCredential: (response: CredentialResponse | undefined) => void;
  /** Injected by tests; the real ones load GIS into the page. */
  loadScript?: (src: string) => Promise<void>;
  google?: () => GoogleAccountsId | undefined;
}

function update(patch: Partial<GoogleButtonState>): void {
  $googleButton.set({ ...$googleButton.get(), ...patch });
}

function failSetup(problem: GoogleSetupProblem): void {
  update({ problem });
}

/** Renders Google's button in the setup's container (preloaded), or fails as init_failed. */
function preload(api: GoogleAccountsId, setup: GoogleButtonSetup): void {
  try {
    api.renderButton(setup.container, {
      type: 'standard',
      theme: 'outline',
      size: 'large',
      text: 'continue_with',
      shape: 'rectangular',
      logo_alignment: 'center',
      width: googleButtonWidth(setup.container.clientWidth),
      locale: setup.locale,
    });
    update({ phase: 'preloaded' });
  } catch {
    failSetup('init_failed');
  }
}

/**
 * Sets the Google button up (SPEC.md §4): loads GIS (idle → loading → ready | error), polls every
 * 100 ms until its API is there (script ready), initialises it with the client id, and 1 s later
 * renders Google's button in `container` (preloaded). Each way it can fail ends in a problem with
 * its SPEC.md §8 text: no client id, the script not loading, initialising throwing. Returns a
 * function that stops whatever is still pending.
 */
export function startGoogleButton(setup: GoogleButtonSetup): () => void {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let poll: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  const stopPolling = () => clearInterval(poll);
  $googleButton.set({ ...INITIAL_GOOGLE_BUTTON });

  if (!setup.clientId.trim()) {
    failSetup('not_configured');
    return () => {};
  }

  const google = setup.google ?? pageGoogle;

  function onScriptReady(api: GoogleAccountsId): void {
    try {
      api.initialize({
        client_id: setup.clientId,
        callback: (response) => setup.onCredential(response),
        context: 'signup',
        ux_mode: 'popup',
      });
    } catch {
      failSetup('init_failed');
      return;
    }
    update({ script: 'ready', phase: 'script_ready' });
    timers.push(setTimeout(() => preload(api, setup), BUTTON_PRELOAD_DELAY_MS));
  }

  let waitedMs = 0;
  poll = setInterval(() => {
    const api = google();
    if (api) {
      stopPolling();
      onScriptReady(api);
      return;
    }
    // Only a script that has run yet offers no API is given up on here; a load error says so itself.
    if ($googleButton.get().script === 'ready') waitedMs += SCRIPT_READY_POLL_MS;
    if (waitedMs >= SCRIPT_READY_GIVE_UP_MS) {
      stopPolling();
      failSetup('not_available');
    }
  }, SCRIPT_READY_POLL_MS);

  update({ script: 'loading' });
  (setup.loadScript ?? loadGisAfterPageLoad)(GIS_SCRIPT_URL).then(
    () => {
      if (!stopped) update({ script: 'ready' });
    },
    () => {
      if (stopped) return;
      stopPolling();
      update({ script: 'error', problem: 'not_available' });
    },
  );

  return () => {
    stopped = true;
    stopPolling();
    for (const timer of timers) clearTimeout(timer);
  };
}
