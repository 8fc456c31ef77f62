import { type FormEvent, useState } from 'react';
import { ContinueButton } from './kit/ContinueButton';
import { EmailInput } from './kit/EmailInput';
import { EMAIL_DOMAINS, EMAIL_DOMAINS_DEV } from './kit/email-domains';
import { isValidEmail } from './kit/email-validity';
import { completeEmailStep } from './signup/complete-email-step';

export interface SignupFormProps {
  /** Where the form posts without JavaScript: the screen's own path and query. */
  action: string;
  /** The next screen's URL, query kept. */
  next: string | null;
  /** SPEC.md §5: outside production the shortcuts are reserved test domains. */
  production: boolean;
  text: {
    label: string;
    placeholder: string;
    shortcuts: string;
    submit: string;
    invalid: string;
    empty: string;
  };
}

/**
 * The email capture of the signup screens (SPEC.md §2, §4, §5). A real form: without
 * JavaScript it posts to the worker and moves on; with it, an invalid address is refused in
 * place (EmailInput cancels the submit) and a valid one completes the step.
 */
export default function SignupForm({ action, next, production, text }: SignupFormProps) {
  const [email, setEmail] = useState('');
  const valid = isValidEmail(email);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // EmailInput has already cancelled the event when the address is invalid.
    if (event.defaultPrevented) return;
    event.preventDefault();
    completeEmailStep(email, next);
  }

  return (
    <form method="post" action={action} className="signup-form" onSubmit={onSubmit} noValidate>
      <EmailInput
        value={email}
        onChange={setEmail}
        valid={valid}
        label={text.label}
        placeholder={text.placeholder}
        shortcutsLabel={text.shortcuts}
        domains={production ? EMAIL_DOMAINS : EMAIL_DOMAINS_DEV}
        errorMessages={{ invalid: text.invalid, empty: text.empty }}
      />
      <ContinueButton label={text.submit} />
    </form>
  );
}
