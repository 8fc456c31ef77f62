import type { PaymentMethodId } from '../../islands/kit/payment-methods';
import { InAppWayOut } from '../kit/InAppWayOut';
import type { ScreenProps } from '../types';

/**
 * Inside an ad app's own browser, a checkout that offers more than the card says that its
 * wallets (and PayPal, where the deployment offers it) may not work there and offers the way out
 * to the real browser, where the
 * visitor, signed in to the same account by the link, can pay with them
 * (worker/resume/resume-route.ts). The card form, selected by default there, pays in place.
 */
export function CheckoutWayOut({
  props,
  methods,
}: {
  props: Pick<ScreenProps, 't' | 'screen' | 'inApp'>;
  methods: readonly PaymentMethodId[];
}) {
  const { t, screen, inApp } = props;
  if (!inApp || methods.every((method) => method === 'card')) return null;
  const note = methods.includes('paypal')
    ? 'plans.checkout.in_app'
    : 'plans.checkout.in_app_wallets';
  return <InAppWayOut t={t} screen={screen} inApp={inApp} note={note} />;
}
