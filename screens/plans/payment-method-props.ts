import type { TFunction } from 'i18next';
import type {
  PaymentImage,
  PaymentMethodChoiceProps,
  PaymentMethodId,
  PaymentMethodOption,
} from '../../islands/PaymentMethodChoice';
import {
  APPLE_PAY_IMAGE,
  CARD_BRAND_IMAGES,
  GOOGLE_PAY_IMAGE,
  PAYPAL_IMAGE,
} from './payment-images';

const METHOD_IMAGES: Record<PaymentMethodId, readonly PaymentImage[]> = {
  card: CARD_BRAND_IMAGES,
  wallet: [APPLE_PAY_IMAGE, GOOGLE_PAY_IMAGE],
  apple_pay: [APPLE_PAY_IMAGE],
  paypal: [PAYPAL_IMAGE],
};

function methodOption(t: TFunction, id: PaymentMethodId): PaymentMethodOption {
  return {
    id,
    label: t(`plans.methods.${id}`),
    images: [...METHOD_IMAGES[id]],
    note: id === 'card' ? undefined : t(`plans.methods.${id}_note`),
  };
}

/** The PaymentMethodChoice island's props: the methods in the order given, the first selected. */
export function paymentMethodProps(
  t: TFunction,
  layout: PaymentMethodChoiceProps['layout'],
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]],
): PaymentMethodChoiceProps {
  return {
    label: t('plans.methods.label'),
    layout,
    methods: methods.map((id) => methodOption(t, id)),
    defaultId: methods[0],
    card: {
      title: t('plans.card.title'),
      number: t('plans.card.number'),
      numberPlaceholder: t('plans.card.number_placeholder'),
      expiry: t('plans.card.expiry'),
      expiryPlaceholder: t('plans.card.expiry_placeholder'),
      cvv: t('plans.card.cvv'),
      cvvPlaceholder: t('plans.card.cvv_placeholder'),
      name: t('plans.card.name'),
      namePlaceholder: t('plans.card.name_placeholder'),
    },
  };
}
