import { type FormEvent, useState } from 'react';
import type { ErrorTexts, SIGN_UP_ERROR_KEYS } from '../shared/api/error-text';
import { ContinueButton } from './kit/ContinueButton';
import { signUpOnPress } from './signup/on-press';

export interface AutoSignupProps {
  /** Where the form posts without JavaScript. */
  action: string;
  next: string | null;
  label: string;
  loadingMessage: string;
  userUuid: string;
  landingType: string;
  errors: ErrorTexts<(typeof SIGN_UP_ERROR_KEYS)[number]>;
}

/** A fresh address per press: the portal refuses one that is taken (SPEC.md §5). */
export function generatedTestEmail(now = Date.now(), random = Math.random()): string {
  return `qa-${now.toString(36)}-${random.toString(36).slice(2, 8)}@example.com`;
}

/**
 * auto-signup of the stripe_test flow (SPEC.md §2), for QA: Continue creates an account with a
 * generated test address through the same sign-up as the signup screen (payment settings and
 * deeplink included), then opens checkout-test.
 */
export default function AutoSignup({
  action,
  next,
  label,
  loadingMessage,
  userUuid,
  landingType,
  errors,
}: AutoSignupProps) {
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const signedUp = await signUpOnPress(generatedTestEmail(), {
      userUuid,
      landingType,
      next,
      texts: errors,
      loadingMessage,
    });
    if (!signedUp || !next) setBusy(false);
  }

  return (
    <form method="post" action={action} className="continue-form" onSubmit={onSubmit}>
      <ContinueButton label={label} busy={busy} />
    </form>
  );
}
