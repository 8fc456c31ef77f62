import { useId, useState } from 'react';
import { type CardAdvice, type CardEntryCopy, CardEntryForm } from './kit/CardEntry';
import { type PayDueOutcome, payWithCard } from './payments/pay-due';
import type { PaymentSettings } from './payments/providers';

/** A decline's advice in words, as the declined page gives it (screens/after/decline-advice.ts). */
export type PayDueAdvice = CardAdvice;

/** Every word of the form, translated on the server (islands load no translations). */
export interface PayDueCopy extends CardEntryCopy {
  title: string;
  /** "Amount due": the row above the form, until it is paid. */
  due: string;
  /** "Pay $39.99": the amount due on the button. */
  pay: string;
  paidTitle: string;
  paid: string;
  paidWith: string;
}

/**
 * The recovery link's "Pay what is due" (docs/payments.md): where to post, the amount, and the
 * card provider's public settings the product API's read gave (or the test gateway's).
 */
export interface PayDueProps {
  payPath: string;
  amount: string;
  language: string;
  settings: PaymentSettings;
  copy: PayDueCopy;
}

function Paid({
  copy,
  outcome,
}: {
  copy: PayDueCopy;
  outcome: PayDueOutcome & { status: 'paid' };
}) {
  return (
    <section className="pay-due pay-due--paid" aria-labelledby="pay-due-paid" role="status">
      <h2 id="pay-due-paid">{copy.paidTitle}</h2>
      <dl className="receipt__rows">
        {outcome.amount ? (
          <div className="receipt__row">
            <dt>{copy.paid}</dt>
            <dd>{outcome.amount}</dd>
          </div>
        ) : null}
        {outcome.card ? (
          <div className="receipt__row">
            <dt>{copy.paidWith}</dt>
            <dd>
              <bdi dir="ltr">{outcome.card}</bdi>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/**
 * "Pay what is due" on a recovery link's page (docs/payments.md): the card form
 * (./kit/CardEntry.tsx), Pay with the amount, the card's 3-D Secure challenge when its bank asks,
 * then what was paid and with which card; a decline says what to do, as the declined page does.
 * The server HTML shows the form's frame; only the script can pay.
 */
export default function PayDue(props: PayDueProps) {
  const { copy } = props;
  const id = useId();
  const [paid, setPaid] = useState<(PayDueOutcome & { status: 'paid' }) | null>(null);
  if (paid) return <Paid copy={copy} outcome={paid} />;
  const send = async (provider: Parameters<typeof payWithCard>[0], name: string) => {
    const outcome = await payWithCard(provider, props, name);
    if (outcome.status !== 'paid') return outcome;
    setPaid(outcome);
    return null;
  };
  return (
    <section className="pay-due" aria-labelledby={`${id}title`}>
      <h2 id={`${id}title`}>{copy.title}</h2>
      <dl className="receipt__rows pay-due__amount">
        <div className="receipt__row">
          <dt>{copy.due}</dt>
          <dd>{props.amount}</dd>
        </div>
      </dl>
      <CardEntryForm
        settings={props.settings}
        language={props.language}
        copy={copy}
        submit={copy.pay}
        send={send}
      />
    </section>
  );
}
