import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import {
  type ErrorTexts,
  GOOGLE_BUTTON_ERROR_KEYS,
  type GoogleProblem,
  googleProblemText,
  readableText,
  SIGN_UP_ERROR_KEYS,
} from '../shared/api/error-text';
import { handleGoogleCredential } from './signup/google-credential';
import { startGoogleButton } from './signup/google-identity';
import { googleSignUpOnPress } from './signup/on-press';
import { showError } from './stores/error';
import { $googleButton } from './stores/google-button';

/** The error texts the Google button may show: its own (SPEC.md §8) and those of a sign-up. */
export const GOOGLE_SIGN_IN_ERROR_KEYS = [
  ...GOOGLE_BUTTON_ERROR_KEYS,
  ...SIGN_UP_ERROR_KEYS,
] as const;

export interface GoogleSignInProps {
  /** The worker's GOOGLE_CLIENT_ID binding; empty when it has none. */
  clientId: string;
  /** The page language, for the text of Google's button. */
  language: string;
  next: string | null;
  userUuid: string;
  landingType: string;
  text: {
    /** 'Continue with Google': our own button until Google's is there. */
    button: string;
    /** The loading overlay's message while the account is being created. */
    creating: string;
  };
  errors: ErrorTexts<(typeof GOOGLE_SIGN_IN_ERROR_KEYS)[number]>;
}

/** Google's four-colour G, drawn here: no third-party image before GIS itself arrives. */
function GoogleMark() {
  return (
    <svg
      className="google-signin__mark"
      viewBox="0 0 48 48"
      width="20"
      height="20"
      aria-hidden="true"
    >
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z"
      />
      <path
        fill="#FBBC05"
        d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6.1z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}

/**
 * Our button's focus handlers: when Google fails while a keyboard user is on it, the button goes
 * and focus goes to the email field, the way that still works, rather than nowhere.
 */
function useFocusHandoff(problem: GoogleProblem | null) {
  // Whether our button has focus, read when the problem arrives and the button goes.
  const focused = useRef(false);
  // Stays an effect: it moves focus to another element.
  useEffect(() => {
    if (!problem || !focused.current) return;
    focused.current = false;
    // The signup screen's email form (islands/SignupForm.tsx).
    document.querySelector<HTMLInputElement>('.signup-form input[name="email"]')?.focus();
  }, [problem]);
  return {
    onFocus: () => {
      focused.current = true;
    },
    onBlur: () => {
      focused.current = false;
    },
  };
}

/**
 * Continue with Google (SPEC.md §2, §4, §5, §8). Until Google Identity Services has rendered its
 * own button (width 343, SPEC.md §9), our accessible button holds its place; pressed too early it
 * says the button is not ready yet, under it. A button that cannot be set up (no client id,
 * Google's script blocked or failing) steps aside: its reason (SPEC.md §8) is said quietly in
 * the button's own 44 px box, not as an error, since the email form above still signs up. No
 * control is left that can do nothing, nothing below moves when Google fails after the first
 * paint (CLS 0), and a keyboard user who was on our button is taken to the email field rather
 * than left nowhere. The credential GIS hands back is signed up through the worker, which
 * verifies it (islands/signup).
 */
export default function GoogleSignIn({
  clientId,
  language,
  next,
  userUuid,
  landingType,
  text,
  errors,
}: GoogleSignInProps) {
  const state = useStore($googleButton);
  const container = useRef<HTMLDivElement>(null);
  const messageId = useId();
  // Pressed before Google's button was there.
  const [pressedEarly, setPressedEarly] = useState(false);
  // Known on the server too, so a missing client id is said in the first HTML.
  const problem: GoogleProblem | null = clientId.trim() ? state.problem : 'not_configured';
  const ready = state.phase === 'preloaded' && problem === null;
  const shown = problem ?? (pressedEarly && !ready ? 'not_ready' : null);
  const placeholderShown = !ready && problem === null;
  const focusHandoff = useFocusHandoff(problem);
  const textOf = (reason: GoogleProblem) => readableText(googleProblemText(reason), errors);

  // Stays an effect: Google draws its button into this island's element.
  // biome-ignore lint/correctness/useExhaustiveDependencies: set up once per page; the props never change.
  useEffect(() => {
    if (!container.current || !clientId.trim()) return;
    return startGoogleButton({
      clientId,
      container: container.current,
      locale: language,
      onCredential: (response) =>
        handleGoogleCredential(
          response,
          (credential) =>
            googleSignUpOnPress(credential, {
              userUuid,
              landingType,
              next,
              texts: errors,
              loadingMessage: text.creating,
            }),
          (reason) => showError(textOf(reason)),
        ),
    });
  }, []);

  function onPlaceholderClick() {
    setPressedEarly(true);
    showError(textOf('not_ready'));
  }

  return (
    <div className={`google-signin${ready ? ' google-signin--ready' : ''}`}>
      <div ref={container} className="google-signin__gis" />
      {placeholderShown ? (
        <button
          type="button"
          className="google-signin__placeholder"
          aria-describedby={shown ? messageId : undefined}
          onClick={onPlaceholderClick}
          {...focusHandoff}
        >
          <GoogleMark />
          <span>{text.button}</span>
        </button>
      ) : null}
      {/* One live region throughout, so that a reason appearing later is announced. */}
      <p
        id={messageId}
        className={`google-signin__message${problem ? ' google-signin__message--aside' : ''}`}
        role="status"
      >
        {shown ? textOf(shown) : null}
      </p>
    </div>
  );
}
