import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { HEATMAP_MASK } from '../../shared/analytics/heatmap';
import { EMAIL_DOMAINS, shortcutsFor, withDomain } from './email-domains';
import { useTypedBeforeHydration } from './typed-before-hydration';

export interface EmailInputProps {
  value: string;
  onChange: (value: string) => void;
  /** SPEC.md §5: validity is supplied by the caller (signup emailValidity), e.g. isValidEmail. */
  valid: boolean;
  label: string;
  /** Texts of email_error_message_invalid and email_error_message_empty (SPEC.md §5). */
  errorMessages: { invalid: string; empty: string };
  /** SPEC.md §5 "the error option": the error text shows only when on. The red state always does. */
  showErrorMessage?: boolean;
  /** SPEC.md §5: domain shortcuts appear only when enabled (default on). */
  showShortcuts?: boolean;
  /** EMAIL_DOMAINS in production, EMAIL_DOMAINS_DEV elsewhere. */
  domains?: readonly string[];
  /** Accessible name of the shortcut group. */
  shortcutsLabel: string;
  /**
   * Called on Enter in a valid field (SPEC.md §4). Without it, Enter submits the enclosing form
   * the way browsers do.
   */
  onSubmit?: () => void;
  placeholder?: string;
  name?: string;
  /**
   * Why the address was refused (by the worker, for a post made before the island hydrated or
   * without script; or by a sign-up the island made), in the visitor's language. The caller
   * drops it when the value changes; while set, the field is invalid and says why beside it.
   */
  refusal?: string;
  /** What the visitor can do about the refusal, shown after it (a link, a button). */
  refusalNext?: ReactNode;
}

/**
 * Inside a form, refuses its submission while the value is invalid: the error shows
 * (`showError`, a state setter) and the field takes focus.
 */
function useRefusedSubmit(
  inputRef: RefObject<HTMLInputElement | null>,
  valid: boolean,
  showError: (shown: true) => void,
) {
  const validRef = useRef(valid);
  validRef.current = valid;
  // Stays an effect: it listens on the field's form element.
  useEffect(() => {
    const form = inputRef.current?.form;
    if (!form) return;
    const refuseInvalid = (event: SubmitEvent) => {
      if (validRef.current) return;
      event.preventDefault();
      showError(true);
      inputRef.current?.focus();
    };
    // Capture phase, so the refusal happens before any other submit handler sees the event.
    form.addEventListener('submit', refuseInvalid, { capture: true });
    return () => form.removeEventListener('submit', refuseInvalid, { capture: true });
  }, [inputRef, showError]);
}

/**
 * Enter in the field: refused (true, the error shows) while the value is invalid; else the
 * caller's submit, or the form's own when there is none.
 */
function refusedEnter(
  event: KeyboardEvent<HTMLInputElement>,
  valid: boolean,
  onSubmit: (() => void) | undefined,
): boolean {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return false;
  if (!valid) {
    event.preventDefault();
    return true;
  }
  if (onSubmit) {
    event.preventDefault();
    onSubmit();
  }
  return false;
}

/** The refusal while the caller gives one, else the field's own error when shown. */
function shownMessage(
  { refusal, errorMessages }: EmailInputProps,
  messageShown: boolean,
  empty: boolean,
): string | null {
  if (refusal !== undefined) return refusal;
  if (!messageShown) return null;
  return empty ? errorMessages.empty : errorMessages.invalid;
}

/**
 * The email field with domain shortcuts (SPEC.md §4 Email input, §5). Inside a form it also
 * refuses the form's submission while the value is invalid, cancelling the submit event before
 * the page script (islands/boot.ts) turns it into navigation, and shows why.
 */
export function EmailInput(props: EmailInputProps) {
  const { value, onChange, valid, refusal } = props;
  const inputId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const shortcutsRef = useRef<HTMLFieldSetElement>(null);
  const [ownErrorShown, setErrorShown] = useState(false);
  const refused = refusal !== undefined;
  const errorShown = ownErrorShown || refused;
  const empty = value.trim() === '';
  useTypedBeforeHydration([{ ref: inputRef, rendered: value }], ([typed = '']) => onChange(typed));
  useRefusedSubmit(inputRef, valid, setErrorShown);
  function pickDomain(domain: string) {
    // withDomain leaves an empty field empty (SPEC.md §5).
    onChange(withDomain(value, domain));
    setErrorShown(false);
    inputRef.current?.focus();
  }
  const messageShown = refused || (ownErrorShown && (props.showErrorMessage ?? true));
  const shortcuts =
    (props.showShortcuts ?? true) ? shortcutsFor(value, props.domains ?? EMAIL_DOMAINS) : [];

  return (
    <div className={errorShown ? 'email-input email-input--error' : 'email-input'}>
      <label className="email-input__label" htmlFor={inputId}>
        {props.label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        className="email-input__field"
        {...HEATMAP_MASK}
        type="email"
        // An address reads left to right in every language: in Arabic, 'anna@' stays 'anna@'.
        dir="ltr"
        name={props.name ?? 'email'}
        value={value}
        placeholder={props.placeholder}
        autoComplete="email"
        inputMode="email"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="go"
        aria-invalid={errorShown || undefined}
        aria-describedby={messageShown ? errorId : undefined}
        onChange={(event) => {
          setErrorShown(false);
          onChange(event.target.value);
        }}
        onBlur={(event) => {
          // SPEC.md §4: no error while the visitor is on their way to a domain shortcut.
          if (event.relatedTarget && shortcutsRef.current?.contains(event.relatedTarget)) return;
          if (!empty && !valid) setErrorShown(true);
        }}
        onKeyDown={(event) => {
          if (refusedEnter(event, valid, props.onSubmit)) setErrorShown(true);
        }}
        onInvalid={(event) => {
          // The browser's own bubble would say it differently; ours is the one shown.
          event.preventDefault();
          setErrorShown(true);
        }}
      />
      <p id={errorId} className="email-input__error" aria-live="polite">
        {shownMessage(props, messageShown, empty)}
        {refused && props.refusalNext ? <> {props.refusalNext}</> : null}
      </p>
      {shortcuts.length > 0 ? (
        <DomainShortcuts
          shortcuts={shortcuts}
          offered={props.domains ?? EMAIL_DOMAINS}
          label={props.shortcutsLabel}
          empty={empty}
          fieldsetRef={shortcutsRef}
          onPick={pickDomain}
        />
      ) : null}
    </div>
  );
}

/**
 * The domain shortcuts under the field (SPEC.md §5), each completing the address. Narrowed to the
 * one the typed domain matches, they keep the room the whole set took (an unseen copy of it
 * under them), so what follows, Continue among it, does not jump up a row as the visitor types.
 */
function DomainShortcuts({
  shortcuts,
  offered,
  label,
  empty,
  fieldsetRef,
  onPick,
}: {
  shortcuts: readonly string[];
  offered: readonly string[];
  label: string;
  empty: boolean;
  fieldsetRef: RefObject<HTMLFieldSetElement | null>;
  onPick: (domain: string) => void;
}) {
  return (
    <fieldset ref={fieldsetRef} className="email-input__shortcuts">
      <legend className="visually-hidden">{label}</legend>
      <div className="email-input__shortcut-rows">
        <div className="email-input__shortcut-row">
          {shortcuts.map((domain) => (
            <button
              key={domain}
              type="button"
              className="email-input__shortcut"
              // Else a right-to-left page reads '@example.com' as 'example.com@'.
              dir="ltr"
              aria-disabled={empty || undefined}
              // A press on a shortcut keeps focus (and the phone's keyboard) in the field; Safari
              // would otherwise blur the field without naming the shortcut as where focus went.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onPick(domain)}
            >
              @{domain}
            </button>
          ))}
        </div>
        {shortcuts.length < offered.length ? (
          <div
            className="email-input__shortcut-row email-input__shortcut-row--room"
            aria-hidden="true"
          >
            {offered.map((domain) => (
              <span key={domain} className="email-input__shortcut" dir="ltr">
                @{domain}
              </span>
            ))}
          </div>
        ) : null}
      </div>
    </fieldset>
  );
}
