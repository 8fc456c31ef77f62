import { describe, expect, it } from 'vitest';
import {
  DECLINE_CLASSES,
  type DeclineClass,
  declineClassOf,
  isDeclineClass,
} from '../../../shared/decline-class';

/** Every Stripe code the page advises on, with the class its advice follows (Stripe's docs). */
const STRIPE: Record<string, DeclineClass> = {
  insufficient_funds: 'insufficient_funds',
  card_velocity_exceeded: 'insufficient_funds',
  withdrawal_count_limit_exceeded: 'insufficient_funds',
  expired_card: 'card_invalid',
  incorrect_cvc: 'card_invalid',
  invalid_cvc: 'card_invalid',
  incorrect_number: 'card_invalid',
  invalid_number: 'card_invalid',
  invalid_expiry_month: 'card_invalid',
  invalid_expiry_year: 'card_invalid',
  incorrect_zip: 'card_invalid',
  do_not_honor: 'do_not_honour',
  generic_decline: 'do_not_honour',
  call_issuer: 'do_not_honour',
  do_not_try_again: 'do_not_honour',
  transaction_not_allowed: 'do_not_honour',
  authentication_required: 'authentication_failed',
  payment_intent_authentication_failure: 'authentication_failed',
  processing_error: 'processing_error',
  issuer_not_available: 'processing_error',
  try_again_later: 'processing_error',
  reenter_transaction: 'processing_error',
  fraudulent: 'fraud_suspected',
  lost_card: 'fraud_suspected',
  stolen_card: 'fraud_suspected',
  pickup_card: 'fraud_suspected',
  restricted_card: 'fraud_suspected',
  security_violation: 'fraud_suspected',
  merchant_blacklist: 'fraud_suspected',
};

/** Braintree's processor responses as it words them, with their class. */
const BRAINTREE: Record<string, DeclineClass> = {
  '2000 Do Not Honor': 'do_not_honour',
  '2001 Insufficient Funds': 'insufficient_funds',
  '2002 Limit Exceeded': 'insufficient_funds',
  '2004 Expired Card': 'card_invalid',
  '2005 Invalid Credit Card Number': 'card_invalid',
  '2006 Invalid Expiration Date': 'card_invalid',
  '2010 Card Issuer Declined CVV': 'card_invalid',
  '2012 Processor Declined - Possible Lost Card': 'fraud_suspected',
  '2013 Processor Declined - Possible Stolen Card': 'fraud_suspected',
  '2014 Processor Declined - Fraud Suspected': 'fraud_suspected',
  '2038 Processor Declined': 'do_not_honour',
  '2044 Declined - Call Issuer': 'do_not_honour',
  '2046 Declined': 'do_not_honour',
  '2047 Call Issuer. Pick Up Card': 'fraud_suspected',
  '2057 Issuer or Cardholder has put a restriction on the card': 'fraud_suspected',
  '2099 Cardholder Authentication Required': 'authentication_failed',
  '3000 Processor Network Unavailable - Try Again': 'processing_error',
};

const REJECTIONS: Record<string, DeclineClass> = {
  three_d_secure: 'authentication_failed',
  cvv: 'card_invalid',
  avs: 'card_invalid',
  avs_and_cvv: 'card_invalid',
  fraud: 'fraud_suspected',
  risk_threshold: 'fraud_suspected',
  excessive_retry: 'do_not_honour',
  token_issuance: 'processing_error',
};

describe('declineClassOf', () => {
  it.each(Object.entries(STRIPE))('Stripe %s is %s', (code, expected) => {
    expect(declineClassOf({ declineCode: code })).toBe(expected);
  });

  it.each(Object.entries(BRAINTREE))('Braintree "%s" is %s', (response, expected) => {
    expect(declineClassOf({ processorResponse: response })).toBe(expected);
    // A product API may name the processor's code alone, where a decline code goes.
    expect(declineClassOf({ declineCode: response.slice(0, 4) })).toBe(expected);
  });

  it.each(Object.entries(REJECTIONS))('Braintree rejection %s is %s', (reason, expected) => {
    expect(declineClassOf({ gatewayRejection: reason })).toBe(expected);
  });

  it('a Braintree code outside the table: 2000s unknown, 3000s a processing error', () => {
    expect(declineClassOf({ processorResponse: '2092 No Purchase Card' })).toBe('unknown');
    expect(declineClassOf({ processorResponse: '3999 Network Error' })).toBe('processing_error');
  });

  it('nothing known, or only words, is unknown', () => {
    expect(declineClassOf({})).toBe('unknown');
    expect(declineClassOf({ declineCode: 'card_declined' })).toBe('unknown');
    expect(declineClassOf({ declineCode: 'declined' })).toBe('unknown');
    expect(declineClassOf({ processorResponse: 'Your card was declined.' })).toBe('unknown');
    expect(declineClassOf({ declineCode: 'toString' })).toBe('unknown');
  });

  it('reads codes whatever their case and spacing', () => {
    expect(declineClassOf({ declineCode: ' Expired_Card ' })).toBe('card_invalid');
  });

  it('the decline code wins over the processor text', () => {
    expect(
      declineClassOf({ declineCode: 'insufficient_funds', processorResponse: '2004 Expired Card' }),
    ).toBe('insufficient_funds');
  });

  it('advice try_again_later or confirm_card_data names the class the codes leave unknown', () => {
    expect(declineClassOf({ declineCode: 'card_declined', adviceCode: 'try_again_later' })).toBe(
      'processing_error',
    );
    expect(declineClassOf({ adviceCode: 'confirm_card_data' })).toBe('card_invalid');
    // A precise code keeps its class.
    expect(declineClassOf({ declineCode: 'expired_card', adviceCode: 'try_again_later' })).toBe(
      'card_invalid',
    );
  });

  it('advice do_not_try_again never leaves a class that offers the same card again', () => {
    for (const code of ['insufficient_funds', 'processing_error', 'card_declined', undefined]) {
      expect(declineClassOf({ declineCode: code, adviceCode: 'do_not_try_again' })).toBe(
        'do_not_honour',
      );
    }
    expect(declineClassOf({ declineCode: 'stolen_card', adviceCode: 'do_not_try_again' })).toBe(
      'fraud_suspected',
    );
    expect(declineClassOf({ declineCode: 'expired_card', adviceCode: 'do_not_try_again' })).toBe(
      'card_invalid',
    );
  });
});

describe('isDeclineClass', () => {
  it('takes the classes and nothing else', () => {
    for (const name of DECLINE_CLASSES) expect(isDeclineClass(name)).toBe(true);
    for (const forged of ['', 'UNKNOWN', 'insufficient_funds ', '<b>', 'constructor', 3, null]) {
      expect(isDeclineClass(forged)).toBe(false);
    }
  });
});
