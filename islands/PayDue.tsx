import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import type { DeclineClass } from '../shared/decline-class';
import { CardholderNameField } from './kit/CardholderNameField';
import { type PayDueOutcome, payWithCard } from './payments/pay-due';
import type { CardFieldLabels, CardProvider, ProviderProblem } from './payments/provider';
import type { PaymentSettings } from './payments/providers';
import type { TestGatewayCopy } from './payments/providers/test-gateway';

/** A decline's advice in words, as the declined page gives it (screens/after/decline-advice.ts). */
export interface PayDueAdvice {
  lead: string;
  hints: string[];
}

/** Every word of the form, translated on the server (islands load no translations). */
export interface PayDueCopy {
  title: string;
  /** "Amount due": the row above the form, until it is paid. */
  due: string;
  cardTitle: string;
  fields: CardFieldLabels;
  namePlaceholder: string;
  loading: string;
  /** "Pay $39.99": the amount due on the button. */
  pay: string;
  paidTitle: string;
  paid: string;
  paidWith: string;
  hintsLabel: string;
  /** Per decline class; `unknown` is SPEC.md §8's for any decline. */
  advice: Record<DeclineClass, PayDueAdvice>;
  /** SPEC.md §8: the worker could not answer. */
  noAnswer: string;
  /** Our own reasons a provider fails (islands/payments/provider.ts ProviderProblem). */
  problems: Record<ProviderProblem, string>;
  gateway: TestGatewayCopy;
  messages: Record<string, string>;
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

type Form = 'loading' | 'ready' | 'unavailable';

/** Mounts the provider's card fields into `box` once; the provider, or null while it loads. */
function useCardFields(props: PayDueProps, box: RefObject<HTMLDivElement | null>) {
  const [form, setForm] = useState<Form>('loading');
  const provider = useRef<CardProvider | null>(null);
  useEffect(() => {
    let gone = false;
    const { settings, copy, language } = props;
    (async () => {
      const { chooseProvider, loadCardProvider } = await import('./payments/providers');
      const choice = chooseProvider(settings, { forceDirect: false });
      const loaded = await loadCardProvider(choice, settings, copy.gateway);
      if (gone || !box.current) return;
      await loaded.mount(box.current, { language, labels: copy.fields, messages: copy.messages });
      provider.current = loaded;
      setForm('ready');
    })().catch(() => {
      if (!gone) setForm('unavailable');
    });
    return () => {
      gone = true;
      provider.current?.unmount();
    };
  }, [props, box]);
  return { form, provider };
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

/** What went wrong with the last press: the decline's advice by class, or the error's text. */
function Problem({ copy, outcome }: { copy: PayDueCopy; outcome: PayDueOutcome | null }) {
  if (outcome?.status === 'declined') {
    const advice = copy.advice[outcome.decline_class] ?? copy.advice.unknown;
    return (
      <div className="pay-due__problem" role="alert">
        <p>{advice.lead}</p>
        <p className="pay-due__hints-label">{copy.hintsLabel}</p>
        <ul>
          {advice.hints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <p className="pay-due__problem" role="alert">
      {outcome?.status === 'error' ? outcome.message : ''}
    </p>
  );
}

/**
 * "Pay what is due" on a recovery link's page (docs/payments.md): the checkout's card form
 * (islands/payments/provider.ts), Pay with the amount, the card's 3-D Secure challenge when its
 * bank asks, then what was paid and with which card; a decline says what to do, as the declined
 * page does. The server HTML shows the form's frame; only the script can pay.
 */
export default function PayDue(props: PayDueProps) {
  const { copy } = props;
  const id = useId();
  const box = useRef<HTMLDivElement | null>(null);
  const { form, provider } = useCardFields(props, box);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setPayDueOutcome] = useState<PayDueOutcome | null>(null);
  if (outcome?.status === 'paid') return <Paid copy={copy} outcome={outcome} />;
  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!provider.current || busy) return;
    setBusy(true);
    setPayDueOutcome(await payWithCard(provider.current, props, name));
    setBusy(false);
  };
  const notice =
    form === 'loading'
      ? copy.loading
      : form === 'unavailable'
        ? copy.problems.card_form_unavailable
        : null;
  return (
    <section className="pay-due" aria-labelledby={`${id}title`}>
      <h2 id={`${id}title`}>{copy.title}</h2>
      <dl className="receipt__rows pay-due__amount">
        <div className="receipt__row">
          <dt>{copy.due}</dt>
          <dd>{props.amount}</dd>
        </div>
      </dl>
      <form onSubmit={pay} noValidate>
        <fieldset className="card-form" disabled={busy}>
          <legend className="card-form__title">{copy.cardTitle}</legend>
          <div className="card-form__body card-form__body--reserved">
            <div ref={box} className="card-form__provider" />
            {notice ? (
              <p className="card-form__notice" role="status">
                {notice}
              </p>
            ) : null}
          </div>
          <CardholderNameField
            id={`${id}name`}
            label={copy.fields.name}
            placeholder={copy.namePlaceholder}
            value={name}
            onChange={setName}
          />
        </fieldset>
        <Problem copy={copy} outcome={outcome} />
        <button
          type="submit"
          className="button button--primary"
          disabled={form !== 'ready' || busy}
          aria-busy={busy}
        >
          {copy.pay}
        </button>
      </form>
    </section>
  );
}
