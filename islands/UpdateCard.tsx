import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { type CardEntryCopy, CardEntryForm, type CardProblem } from './kit/CardEntry';
import { useAfterHydration } from './kit/use-after-hydration';
import { sendCard } from './payments/card-post';
import { payWithCardOnFile } from './payments/pay-due';
import type { CardProvider } from './payments/provider';
import type { PaymentSettings } from './payments/providers';
import { $duePaid, notePaidDue } from './stores/due-paid';

/** Where "Pay $39.99 now" takes the amount the update's answer gives (worded on the server). */
export const AMOUNT_SLOT = '{{amount}}';

/** Every word of the card row and its form, translated on the server. */
export interface UpdateCardCopy extends CardEntryCopy {
  /** "Paid with": the card row's label. */
  paidWith: string;
  /** "Update card": the row's button. */
  open: string;
  title: string;
  /** "Save card": the form's button. */
  save: string;
  updatedTitle: string;
  /** "Updating the card is not available here; write to …": a product API without the call. */
  notAvailable: string;
  /** The subscription was canceled meanwhile: no card to update. */
  ended: string;
  /** "Your last renewal is still due": said under the update while something is. */
  dueLead: string;
  /** "Pay {{amount}} now with this card", `AMOUNT_SLOT` standing for the amount. */
  payNow: string;
  /** Paid meanwhile (another link, another tab): nothing is due any more. */
  nothingDue: string;
}

/**
 * A manage link's card row (docs/payments.md, "Update the card"): the card the subscription
 * renews with, where to post a new one, and where to pay what is due with it once saved; the
 * card provider's public settings from the product API's read, as paying what is due has them.
 */
export interface UpdateCardProps {
  cardPath: string;
  payPath: string;
  /** The card's label (*Visa •••• 4242*), null when the product API named none. */
  card: string | null;
  language: string;
  settings: PaymentSettings;
  copy: UpdateCardCopy;
}

/** The worker's word for a refusal, in the page's words. */
function refusalText(copy: UpdateCardCopy, error: string): string {
  if (error === 'subscription_ended') return copy.ended;
  return error === 'not_available' ? copy.notAvailable : copy.noAnswer;
}

/** What a press of "Pay now" came to, when it paid nothing: the decline's advice, or the error. */
function problemText(copy: UpdateCardCopy, problem: CardProblem): string {
  if (problem.status === 'error') return problem.message;
  return (copy.advice[problem.decline_class] ?? copy.advice.unknown).lead;
}

/**
 * After an update while something is due: the amount, and one button that pays it with the card
 * just saved (`provider` runs the bank's challenge if it asks). Paid, the pay form shows it
 * (./PayDue.tsx, through `$duePaid`) and this goes.
 */
function PayNow(props: {
  copy: UpdateCardCopy;
  due: string;
  post: Pick<UpdateCardProps, 'payPath' | 'settings'>;
  provider: CardProvider;
}) {
  const { copy } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>('');
  const pay = async () => {
    setBusy(true);
    const outcome = await payWithCardOnFile(props.provider, { ...props.post, copy });
    setBusy(false);
    if (outcome.status === 'paid') notePaidDue(outcome);
    else setProblem(problemText(copy, outcome));
  };
  return (
    <div className="card-update__due">
      <p>{copy.dueLead}</p>
      <p className="pay-due__problem" role="alert">
        {problem}
      </p>
      <button
        type="button"
        className="button button--primary"
        id="pay-due-now"
        disabled={busy}
        aria-busy={busy}
        onClick={pay}
      >
        {copy.payNow.replace(AMOUNT_SLOT, props.due)}
      </button>
    </div>
  );
}

/** The card the renewals use: the one that paid the due, the one just saved, or the read's. */
function CardRow({ label, card }: { label: string; card: string | null }) {
  return (
    <dl className="receipt__rows">
      <div className="receipt__row">
        <dt>{label}</dt>
        <dd>
          <bdi dir="ltr">{card ?? '—'}</bdi>
        </dd>
      </div>
    </dl>
  );
}

/**
 * "Update card" on a manage link's page: opens the card form in place (./kit/CardEntry.tsx),
 * runs the card's 3-D Secure challenge when its bank asks (a setup: nothing is charged), then
 * shows the new card in the row and moves focus to the result; while something is due, it offers
 * to pay it at once with that card. A decline says what to do, as the declined page does, and
 * the old card stays. Its button waits for the script.
 */
export default function UpdateCard(props: UpdateCardProps) {
  const { copy } = props;
  const id = useId();
  const hydrated = useAfterHydration();
  const paid = useStore($duePaid);
  const [card, setCard] = useState(props.card);
  const [open, setOpen] = useState(false);
  const [updated, setUpdated] = useState<{ due: string | null } | null>(null);
  const saved = useRef<CardProvider | null>(null);
  const focused = useRef<HTMLHeadingElement | HTMLParagraphElement | null>(null);
  useEffect(() => {
    if (open || updated) focused.current?.focus();
  }, [open, updated]);
  const send = async (provider: CardProvider, name: string): Promise<CardProblem | null> => {
    const post = {
      path: props.cardPath,
      gateway: props.settings.paymentProvider,
      keyPrefix: 'cardUpdate',
      copy,
    };
    const outcome = await sendCard<{ status: 'updated'; card: string | null; due?: string | null }>(
      provider,
      post,
      name,
    );
    if (outcome.status === 'refused')
      return { status: 'error', message: refusalText(copy, outcome.error) };
    if (outcome.status !== 'updated') return outcome;
    saved.current = provider;
    setCard(outcome.card ?? card);
    setOpen(false);
    setUpdated({ due: outcome.due ?? null });
    return null;
  };
  const due = paid ? null : updated?.due;
  return (
    <section className="card-update" aria-label={copy.paidWith}>
      <CardRow label={copy.paidWith} card={paid?.card ?? card} />
      {updated ? (
        <p className="card-update__done" role="status" tabIndex={-1} ref={focused}>
          {copy.updatedTitle}
        </p>
      ) : null}
      {due && saved.current ? (
        <PayNow copy={copy} due={due} post={props} provider={saved.current} />
      ) : null}
      {open ? (
        <section className="pay-due" id={`${id}form`} aria-labelledby={`${id}title`}>
          <h2 id={`${id}title`} tabIndex={-1} ref={focused}>
            {copy.title}
          </h2>
          <CardEntryForm
            settings={props.settings}
            language={props.language}
            copy={copy}
            submit={copy.save}
            send={send}
          />
        </section>
      ) : (
        <button
          type="button"
          className="button subscriber__secondary"
          id="update-card"
          disabled={!hydrated}
          onClick={() => {
            setUpdated(null);
            setOpen(true);
          }}
        >
          {copy.open}
        </button>
      )}
    </section>
  );
}
