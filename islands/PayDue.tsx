import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef } from 'react';
import { type CardEntryCopy, CardEntryForm } from './kit/CardEntry';
import { payWithCard } from './payments/pay-due';
import type { PaymentSettings } from './payments/providers';
import { $duePaid, type DuePaid, notePaidDue } from './stores/due-paid';

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
  /** "Next renewal": the row of the renewal the payment moved. */
  renews: string;
  /** Paid meanwhile (another link, another tab): nothing is due any more. */
  nothingDue: string;
}

/**
 * "Pay what is due" on a recovery link's page, or on a manage link's while something is due
 * (docs/payments.md): where to post, the amount, and the card provider's public settings the
 * product API's read gave (or the test gateway's).
 */
export interface PayDueProps {
  payPath: string;
  amount: string;
  /**
   * The card the subscription has now (*Visa •••• 4242*), shown here when no Update card does
   * (a recovery link): paid, the card that paid stands in its place. Null: not shown here.
   */
  card: string | null;
  language: string;
  settings: PaymentSettings;
  copy: PayDueCopy;
}

/** What the payment came to; its title takes the focus, whichever island paid. */
function Paid({ copy, paid }: { copy: PayDueCopy; paid: DuePaid }) {
  const title = useRef<HTMLHeadingElement | null>(null);
  useEffect(() => title.current?.focus(), []);
  const rows = [
    [copy.paid, paid.amount, false],
    [copy.paidWith, paid.card, true],
    [copy.renews, paid.renews, false],
  ] as const;
  return (
    <section className="pay-due pay-due--paid" aria-labelledby="pay-due-paid" role="status">
      <h2 id="pay-due-paid" tabIndex={-1} ref={title}>
        {copy.paidTitle}
      </h2>
      <dl className="receipt__rows">
        {rows.map(([label, value, ltr]) =>
          value ? (
            <div className="receipt__row" key={label}>
              <dt>{label}</dt>
              <dd>{ltr ? <bdi dir="ltr">{value}</bdi> : value}</dd>
            </div>
          ) : null,
        )}
      </dl>
    </section>
  );
}

/**
 * "Pay what is due" (docs/payments.md): the card form (./kit/CardEntry.tsx), Pay with the
 * amount, the card's 3-D Secure challenge when its bank asks, then what was paid, with which card
 * and the next renewal; a decline says what to do, as the declined page does. A manage link's
 * Update card may pay it too, with the card it just saved (./UpdateCard.tsx): the two share
 * `$duePaid`. The server HTML shows the form's frame; only the script can pay.
 */
export default function PayDue(props: PayDueProps) {
  const { copy } = props;
  const id = useId();
  const paid = useStore($duePaid);
  if (paid) return <Paid copy={copy} paid={paid} />;
  const send = async (provider: Parameters<typeof payWithCard>[0], name: string) => {
    const outcome = await payWithCard(provider, props, name);
    if (outcome.status !== 'paid') return outcome;
    notePaidDue(outcome);
    return null;
  };
  return (
    <section className="pay-due" aria-labelledby={`${id}title`}>
      <h2 id={`${id}title`}>{copy.title}</h2>
      <dl className="receipt__rows pay-due__amount">
        {props.card ? (
          <div className="receipt__row">
            <dt>{copy.paidWith}</dt>
            <dd>
              <bdi dir="ltr">{props.card}</bdi>
            </dd>
          </div>
        ) : null}
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
