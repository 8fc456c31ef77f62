import { map } from 'nanostores';
import type { ExternalScriptStatus } from '../kit/external-script';
import { browserOnly } from './browser-only';

/**
 * SPEC.md §4 Google sign-in button: not ready, then script ready, then the button preloaded.
 * The button cannot be set up because it is not configured, Google's script is not available,
 * or initialising it failed.
 */
export type GoogleButtonPhase = 'not_ready' | 'script_ready' | 'preloaded';
export type GoogleSetupProblem = 'not_configured' | 'not_available' | 'init_failed';

export interface GoogleButtonState {
  script: ExternalScriptStatus;
  phase: GoogleButtonPhase;
  problem: GoogleSetupProblem | null;
}

export const INITIAL_GOOGLE_BUTTON: GoogleButtonState = {
  script: 'idle',
  phase: 'not_ready',
  problem: null,
};

/** Not persisted: every page load sets the button up afresh. */
export const $googleButton = browserOnly(
  map<GoogleButtonState>({ ...INITIAL_GOOGLE_BUTTON }),
  'googleButton',
);
