import type { SectionKind } from '../kit/composition';
import { StepList } from '../kit/StepList';
import { StoreBadges } from '../kit/StoreBadges';
import { supportSection } from '../kit/SupportLinks';
import { Island } from '../layout/Island';
import { paymentReceiptProps } from '../plans/receipt-props';
import { headingSection } from '../plans/ScreenHeading';
import { AppScreens } from './AppScreens';
import { END_SECTION_SPECS, type EndSection } from './section-specs';

const LOGIN_STEPS = ['install', 'open', 'email'] as const;

/**
 * The success screen's sections with what draws each (./section-specs.ts says what each is): the
 * download button (the app's deeplink, which logs the visitor in), the deeplink's QR code for a
 * visitor on a computer, the steps to log in by hand, and the order the checkout confirmed (plan,
 * amount, renewal, where the receipt went).
 */
export const END_SECTIONS: Record<EndSection, SectionKind> = {
  heading: headingSection(END_SECTION_SPECS.heading),
  download: {
    ...END_SECTION_SPECS.download,
    render: ({ t, continueAction, brand }) => (
      <>
        <Island
          name="DownloadApp"
          props={{
            action: continueAction,
            label: t('after.success.download'),
            appStoreHref: brand.stores.appStore,
            googlePlayHref: brand.stores.googlePlay,
          }}
        />
        <StoreBadges
          t={t}
          appStoreHref={brand.stores.appStore}
          googlePlayHref={brand.stores.googlePlay}
        />
      </>
    ),
  },
  qr: {
    ...END_SECTION_SPECS.qr,
    render: ({ t }) => (
      <Island
        name="DeeplinkQr"
        props={{
          label: t('after.success.qr_label'),
          caption: t('after.success.qr_caption'),
          missing: t('after.success.qr_missing'),
        }}
      />
    ),
  },
  login_steps: {
    ...END_SECTION_SPECS.login_steps,
    render: ({ t }) => (
      <>
        <h2 className="success__steps-title">{t('after.success.steps_title')}</h2>
        <StepList steps={LOGIN_STEPS.map((step) => t(`after.success.steps.${step}`))} />
      </>
    ),
  },
  order_summary: {
    ...END_SECTION_SPECS.order_summary,
    render: (props) => (
      <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'summary')} />
    ),
  },
  app_screens: { ...END_SECTION_SPECS.app_screens, render: ({ t }) => <AppScreens t={t} /> },
  support: supportSection(END_SECTION_SPECS.support),
};
