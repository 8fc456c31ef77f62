import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { ErrorTexts } from '../shared/api/error-text';
import { currentScreenUrl } from './boot';
import { ContinueButton } from './kit/ContinueButton';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
import { accountProvider } from './stores/card-form';
import { showError } from './stores/error';
import { $paymentPhase, type PaymentPage, pay } from './stores/payment';
import { paymentStoreDeps } from './stores/payment-deps';
import { $plans } from './stores/plans';
import { type ChosenPlanDetails, purchaseRequestFor } from './stores/purchase-request';
import { $signup } from './stores/signup';

export interface UpsellPurchaseProps {
  /** The plans this upsell sells, with what the purchase sends of each (SPEC.md §3). */
  offers: Record<string, ChosenPlanDetails>;
  /** The offer bought when $plans.upsellPlan names none of them (the guide has one). */
  defaultPlanId: string;
  copy: { buy: string; paying: string; noAccount: string; gateway: TestGatewayCopy };
  /** Where the form posts without JavaScript (the worker moves on without charging). */
  action: string;
  page: Omit<PaymentPage, 'here' | 'texts'>;
  errorTexts: Partial<ErrorTexts>;
}

/**
 * An upsell's one click (SPEC.md §1, §2: after the main purchase): charges the payment method
 * already on file through the same purchase as the checkout, with the same busy button, so a
 * double click buys once. The upsell's Skip is a separate form that just moves on.
 */
export default function UpsellPurchase({
  offers,
  defaultPlanId,
  copy,
  action,
  page,
  errorTexts,
}: UpsellPurchaseProps) {
  const phase = useStore($paymentPhase);
  // A phase left over from a page restored from the back/forward cache must not hold the button.
  useEffect(() => $paymentPhase.set('idle'), []);

  async function buy() {
    if ($paymentPhase.get() !== 'idle') return;
    const chosen = $plans.get().upsellPlan;
    const planId = chosen in offers ? chosen : defaultPlanId;
    $paymentPhase.set('paying');
    const account = await accountProvider({ forceDirect: false, copy: copy.gateway }).catch(
      () => null,
    );
    $paymentPhase.set('idle');
    if (!account) {
      showError(copy.noAccount);
      return;
    }
    const signup = $signup.get();
    const request = purchaseRequestFor({
      planId,
      details: offers[planId] ?? null,
      choice: account.choice,
      visitor: { email: signup.email, uuid: signup.uuid },
      method: { kind: 'on-file' },
    });
    const here = currentScreenUrl();
    await pay(request, { ...page, here, texts: errorTexts }, paymentStoreDeps(account.provider));
  }

  const busy = phase !== 'idle';
  return (
    <form
      method="post"
      action={action}
      className="continue-form"
      onSubmit={(event) => {
        event.preventDefault();
        void buy();
      }}
    >
      <ContinueButton label={copy.buy} busy={busy} busyLabel={copy.paying} />
    </form>
  );
}
