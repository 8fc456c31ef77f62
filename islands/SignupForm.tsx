import { type FormEvent, useState } from 'react';
import type { ErrorTexts, SIGN_UP_ERROR_KEYS } from '../shared/api/error-text';
import type { RefusedEmail } from '../shared/api/form-sign-up';
import { isValidEmail } from '../shared/email-validity';
import { ContinueButton } from './kit/ContinueButton';
import { EmailInput } from './kit/EmailInput';
import { EMAIL_DOMAINS, EMAIL_DOMAINS_DEV } from './kit/email-domains';
import { useWorkingStore } from './kit/use-working-store';
import { signUpOnPress } from './signup/on-press';
import { signupEmailStore, typeSignupEmail } from './stores/signup-email';

export interface SignupFormProps {
  /** Where the form posts without JavaScript: the screen's own path and query. */
  action: string;
  /** The next screen's URL, query kept. */
  next: string | null;
  /** SPEC.md §5: outside production the shortcuts are reserved test domains. */
  production: boolean;
  /** The visitor uuid and landing type sent with the sign-up (SPEC.md §7 POST /signup). */
  userUuid: string;
  landingType: string;
  text: {
    label: string;
    placeholder: string;
    shortcuts: string;
    submit: string;
    /** The button's label while the account is being created. */
    busy: string;
    /** The loading overlay's message meanwhile. */
    creating: string;
    invalid: string;
    empty: string;
    /** What to do when the address already has an account, and the button to start afresh. */
    takenNext: string;
    useAnother: string;
  };
  /** The app's listings, where an existing account logs in (shared/brand.ts, the brand's `stores`). */
  stores: readonly { name: string; href: string }[];
  /** The texts of SIGN_UP_ERROR_KEYS (shared/api/error-text.ts signupErrorText). */
  errors: ErrorTexts<(typeof SIGN_UP_ERROR_KEYS)[number]>;
  /** The worker refused what this form posted before it hydrated (worker/routes/screens/posted-forms.ts). */
  refused?: RefusedEmail;
}

/**
 * The email capture of the signup screens (SPEC.md §2, §4, §5). A real form: without JavaScript
 * it posts to the worker, which creates the account and moves on (or shows the form again with
 * why not: `refused`); with it, an invalid address is refused in place
 * (EmailInput cancels the submit) and a valid one creates the account (islands/signup/sign-up.ts)
 * before moving on. On failure the toast says why and the typed address stays for another try,
 * except for an address that already has an account (SPEC.md §5): that is said beside the field,
 * with where to log in instead, until the address changes.
 */
export default function SignupForm({
  action,
  next,
  production,
  userUuid,
  landingType,
  text,
  stores,
  errors,
  refused,
}: SignupFormProps) {
  // Starts from an address kept in this browser (./stores/signup-email.ts).
  const [$email] = useState(() => signupEmailStore(refused?.value ?? ''));
  const email = useWorkingStore($email);
  const [busy, setBusy] = useState(false);
  // Why the address was refused, until it changes.
  const [refusal, setRefusal] = useState(refused);
  const valid = isValidEmail(email);

  function onEmailChange(value: string) {
    typeSignupEmail($email, value);
    setRefusal(undefined);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    // EmailInput has already cancelled the event when the address is invalid.
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    setBusy(true);
    const signedUp = await signUpOnPress(email, {
      userUuid,
      landingType,
      next,
      texts: errors,
      loadingMessage: text.creating,
      // Posted as without script if the sign-up code cannot load.
      form,
      onEmailTaken: (message) => setRefusal({ value: email, message, taken: true }),
    });
    // On success the page is on its way to the next screen: the button stays busy until then.
    if (!signedUp || !next) setBusy(false);
  }

  return (
    <form method="post" action={action} className="signup-form" onSubmit={onSubmit} noValidate>
      <EmailInput
        value={email}
        onChange={onEmailChange}
        valid={valid}
        label={text.label}
        placeholder={text.placeholder}
        shortcutsLabel={text.shortcuts}
        domains={production ? EMAIL_DOMAINS : EMAIL_DOMAINS_DEV}
        errorMessages={{ invalid: text.invalid, empty: text.empty }}
        refusal={refusal?.message}
        refusalNext={
          refusal?.taken ? (
            <EmailTakenNext
              action={action}
              text={text}
              stores={stores}
              onUseAnother={() => onEmailChange('')}
            />
          ) : undefined
        }
      />
      <ContinueButton label={text.submit} busy={busy} busyLabel={text.busy} />
    </form>
  );
}

/**
 * Where an address that already has an account goes next: the app, to log in with it (the funnel
 * has no log-in of its own), or another address.
 */
function EmailTakenNext({
  action,
  text,
  stores,
  onUseAnother,
}: {
  action: string;
  text: SignupFormProps['text'];
  stores: SignupFormProps['stores'];
  onUseAnother: () => void;
}) {
  return (
    <>
      <span className="email-taken__next">{text.takenNext}</span>{' '}
      <span className="email-taken__actions">
        {stores.map((store) => (
          <a key={store.href} href={store.href}>
            {store.name}
          </a>
        ))}
        {/* A link to the empty form, so that it works before the island hydrates too. */}
        <a
          href={action}
          className="email-taken__another"
          onClick={(event) => {
            event.preventDefault();
            onUseAnother();
            const form = event.currentTarget.closest('form');
            const field = form?.elements.namedItem('email');
            if (field instanceof HTMLInputElement) field.focus();
          }}
        >
          {text.useAnother}
        </a>
      </span>
    </>
  );
}
