import { StepList } from '../kit/StepList';
import { StoreBadges } from '../kit/StoreBadges';
import { SupportLinks } from '../kit/SupportLinks';
import { Island } from '../layout/Island';
import { paymentReceiptProps } from '../plans/receipt-props';
import type { ScreenProps } from '../types';
import { AppScreens } from './AppScreens';
import { STORE_LINKS } from './store-links';

const LOGIN_STEPS = ['install', 'open', 'email'] as const;

/**
 * 'Your plan awaits' (SPEC.md §2): the download button (the app's deeplink, which logs the
 * visitor in), the deeplink's QR code for a visitor on a computer, the steps to log in by hand,
 * and the order the checkout confirmed (plan, amount, renewal, where the receipt went).
 */
export function SuccessScreen(props: ScreenProps) {
  const { screen, t, continueAction } = props;
  return (
    <section className="screen success" aria-labelledby="screen-title">
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
      <Island
        name="DownloadApp"
        props={{
          action: continueAction,
          label: t('after.success.download'),
          appStoreHref: STORE_LINKS.appStore,
          googlePlayHref: STORE_LINKS.googlePlay,
        }}
      />
      <StoreBadges
        t={t}
        appStoreHref={STORE_LINKS.appStore}
        googlePlayHref={STORE_LINKS.googlePlay}
      />
      <Island
        name="DeeplinkQr"
        props={{
          label: t('after.success.qr_label'),
          caption: t('after.success.qr_caption'),
          missing: t('after.success.qr_missing'),
        }}
      />
      <h2 className="success__steps-title">{t('after.success.steps_title')}</h2>
      <StepList steps={LOGIN_STEPS.map((step) => t(`after.success.steps.${step}`))} />
      <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'summary')} />
      <AppScreens t={t} />
      <SupportLinks t={t} />
    </section>
  );
}
