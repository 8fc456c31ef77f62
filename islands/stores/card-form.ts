import { atom } from 'nanostores';
import type { CardFieldName, CardFieldProblems } from '../../shared/card-field-problems';
import { CARD_FIELDS_DEADLINE_MS, withinDeadline } from '../payments/card-fields-deadline';
import type { CardFieldsOptions, CardProvider } from '../payments/provider';
import { reportProviderUnavailable } from '../payments/provider-calls';
import {
  chooseProvider,
  loadCardProvider,
  type ProviderChoice,
  playedProvider,
} from '../payments/providers';
import type { TestGatewayCopy } from '../payments/providers/test-gateway';
import { loadPaymentSettings } from '../signup/payment-settings';
import { browserOnly } from './browser-only';
import { $signup } from './signup';

/**
 * The card fields of the page's payment form: 'loading' until the provider's fields are in the
 * page, 'ready' then, 'no-account' when nobody signed up on this browser (the portal names the
 * provider only after sign-up, SPEC.md §4 Payment settings), 'unavailable' when the provider's
 * script or frame could not load.
 */
export type CardFormStatus = 'loading' | 'ready' | 'no-account' | 'unavailable';

export const $cardForm = browserOnly(atom<CardFormStatus>('loading'), 'card-form');

/**
 * What is wrong with each card field as the provider last reported it, or null while it has
 * not (Pay then leaves the check to the provider's tokenization, as before).
 */
export const $cardProblems = browserOnly(atom<CardFieldProblems | null>(null), 'card-problems');

/** The fields with a problem, in the order the visitor meets them. */
export function fieldsWithProblems(problems: CardFieldProblems | null): CardFieldName[] {
  if (!problems) return [];
  return (['number', 'expiry', 'cvv'] as const).filter((name) => problems[name] !== null);
}

/** The mounted provider and the route it pays on, for the purchase. */
export interface MountedCardFields {
  provider: CardProvider;
  choice: ProviderChoice;
}

let mounted: MountedCardFields | null = null;

export function mountedCardFields(): MountedCardFields | null {
  return mounted;
}

/** The provider of this visitor's account without card fields (upsells: the method on file). */
export async function accountProvider(options: {
  forceDirect: boolean;
  copy: TestGatewayCopy;
}): Promise<MountedCardFields | null> {
  if (!$signup.get().isSuccess) return null;
  // An account this browser did not sign up in (a resume link signed it in) has no payment
  // settings yet: they are asked for here, as sign-up would have (SPEC.md §4 Payment settings).
  if ($signup.get().paymentSettingsStatus === null) await loadPaymentSettings();
  const signup = $signup.get();
  const choice = chooseProvider(signup, { forceDirect: options.forceDirect });
  return { choice, provider: await loadCardProvider(choice, signup, options.copy) };
}

/**
 * Puts the visitor's card provider's fields into `container` (SPEC.md §2 card form), within
 * CARD_FIELDS_DEADLINE_MS. Resolves an undo for the component's cleanup.
 */
export async function mountCardFields(
  container: HTMLElement,
  options: CardFieldsOptions & { forceDirect: boolean; copy: TestGatewayCopy },
): Promise<() => void> {
  $cardForm.set('loading');
  $cardProblems.set(null);
  let fields: MountedCardFields | null = null;
  try {
    fields = await accountProvider(options);
    if (!fields) {
      $cardForm.set('no-account');
      return () => {};
    }
    const { provider } = fields;
    const mounting = provider.mount(container, {
      language: options.language,
      labels: options.labels,
      messages: options.messages,
      onCardEdited: options.onCardEdited,
      onProblems: (problems) => $cardProblems.set(problems),
    });
    await withinDeadline(mounting, CARD_FIELDS_DEADLINE_MS, () => provider.unmount());
  } catch (error) {
    console.error('[geofunnel] card fields did not load', error);
    if (fields) void reportProviderUnavailable(playedProvider(fields.choice));
    fields?.provider.unmount();
    $cardForm.set('unavailable');
    return () => {};
  }
  mounted = fields;
  $cardForm.set('ready');
  const done = fields;
  return () => {
    done.provider.unmount();
    if (mounted === done) {
      mounted = null;
      $cardProblems.set(null);
    }
  };
}
