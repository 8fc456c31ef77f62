import type { CheckoutPaymentProps } from '../../islands/CheckoutPayment';
import type { PaymentMethodId } from '../../islands/kit/payment-methods';
import type { PlanChoiceProps } from '../../islands/PlanChoice';
import type { Plan } from '../../shared/plans/catalogue';
import type { Composition } from '../kit/arrangement';
import { ComposedScreen, type SectionKind } from '../kit/composition';
import { LocatedBanner } from '../kit/LocatedBanner';
import { type PaymentProvider, ProviderLogo } from '../kit/ProviderLogo';
import { supportSection } from '../kit/SupportLinks';
import { Testimonials } from '../kit/Testimonials';
import { trustSection } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { BenefitList } from './BenefitList';
import { CheckoutCallout } from './CheckoutCallout';
import { CheckoutWayOut } from './CheckoutWayOut';
import type { CheckoutVariant } from './checkout-variants';
import { GuaranteeBadge } from './GuaranteeBadge';
import { OfferTimerBanner } from './OfferTimerBanner';
import {
  type PaywallSection,
  type PaywallWording,
  paywallSectionSpecs,
} from './paywall-section-specs';
import { paymentReceiptProps } from './receipt-props';
import { ScreenHeading } from './ScreenHeading';

/** What sets one paywall apart, from which its sections draw it. */
export interface PaywallShape {
  /** How it words its benefits. */
  wording: PaywallWording;
  /** Its root's classes, as the deployment offers it; else its composition's. */
  className?(props: ScreenProps): string;
  /** The heading's lead where the screen's own names what it does not offer. */
  lead?(props: ScreenProps): string | undefined;
  /** What the callout headlines, and the plan selected when the page opens, whose trial it names. */
  callout(props: ScreenProps): { emphasis: CheckoutVariant['emphasis']; plan: Plan };
  /** The plan picker's props. */
  plans(props: ScreenProps): PlanChoiceProps;
  /** The payment form's props, and the methods it offers (an ad app's browser may fail some). */
  payment(props: ScreenProps): { form: CheckoutPaymentProps; methods: readonly PaymentMethodId[] };
  /** Who takes the payment, as the logos under it say. */
  providers(props: ScreenProps): readonly PaymentProvider[];
}

const BENEFITS = ['live', 'alerts', 'consent'] as const;

/**
 * A paywall's sections with what draws each (./paywall-section-specs.ts says what each is). Under
 * the price, what reassures a visitor: the money-back guarantee, the trust labels, who takes the
 * payment, and the support and legal links (SPEC.md §2 Other UI pieces).
 */
function paywallSections(shape: PaywallShape): Record<PaywallSection, SectionKind> {
  const specs = paywallSectionSpecs(shape.wording);
  return {
    countdown: {
      ...specs.countdown,
      render: ({ t, offerClock }) => <OfferTimerBanner t={t} clock={offerClock} />,
    },
    located: { ...specs.located, render: ({ t }) => <LocatedBanner t={t} /> },
    heading: {
      ...specs.heading,
      render: (props) => (
        <ScreenHeading screen={props.screen} t={props.t} lead={shape.lead?.(props)} />
      ),
    },
    callout: {
      ...specs.callout,
      render: (props) => (
        <CheckoutCallout t={props.t} language={props.language} {...shape.callout(props)} />
      ),
    },
    benefits: {
      ...specs.benefits,
      render: ({ t }) => (
        <BenefitList
          label={t('plans.paywall.benefits_label')}
          items={BENEFITS.map((benefit) => t(`plans.paywall.${shape.wording}.benefits.${benefit}`))}
        />
      ),
    },
    plans: {
      ...specs.plans,
      render: (props) => <Island name="PlanChoice" props={shape.plans(props)} />,
    },
    payment: {
      ...specs.payment,
      render: (props) => {
        const { form, methods } = shape.payment(props);
        return (
          <>
            <Island name="CheckoutPayment" props={form} />
            <Island name="PaymentReceipt" props={paymentReceiptProps(props, 'dialog')} />
            <CheckoutWayOut props={props} methods={methods} />
          </>
        );
      },
    },
    // The paywalls' CSS has no rules for it: it brings its own.
    testimonials: { ...specs.testimonials, render: ({ t }) => <Testimonials t={t} ownStyle /> },
    guarantee: { ...specs.guarantee, render: ({ t }) => <GuaranteeBadge t={t} /> },
    trust: trustSection(specs.trust),
    providers: {
      ...specs.providers,
      render: (props) => {
        const providers = shape.providers(props);
        return providers.length ? (
          <p className="payment-trust__providers">
            {providers.map((provider) => (
              <ProviderLogo key={provider} t={props.t} provider={provider} />
            ))}
          </p>
        ) : null;
      },
    },
    support: supportSection(specs.support),
  };
}

/** A paywall screen drawn from its sections as a marketer's content arranges them. */
export function paywallComponent(shape: PaywallShape, composition: Composition<PaywallSection>) {
  const catalogue = paywallSections(shape);
  return function PaywallScreen(props: ScreenProps) {
    return (
      <ComposedScreen
        props={props}
        composition={composition}
        catalogue={catalogue}
        className={shape.className?.(props)}
      />
    );
  };
}
