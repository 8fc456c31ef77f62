import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { type CardEntryCopy, CardEntryForm, type CardProblem } from './kit/CardEntry';
import { useAfterHydration } from './kit/use-after-hydration';
import { sendCard } from './payments/card-post';
import type { CardProvider } from './payments/provider';
import type { PaymentSettings } from './payments/providers';
import { $duePaid } from './stores/due-paid';

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
}

/**
 * A manage link's card row (docs/payments.md, "Update the card"): the card the subscription
 * renews with, and where to post a new one; the card provider's public settings from the product
 * API's read, as paying what is due has them.
 */
export interface UpdateCardProps {
  cardPath: string;
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
 * shows the new card in the row and moves focus to the result. A decline says what to do, as
 * the declined page does, and the old card stays. Its button waits for the script.
 */
export default function UpdateCard(props: UpdateCardProps) {
  const { copy } = props;
  const id = useId();
  const hydrated = useAfterHydration();
  const paid = useStore($duePaid);
  const [card, setCard] = useState(props.card);
  const [open, setOpen] = useState(false);
  const [updated, setUpdated] = useState(false);
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
    const outcome = await sendCard<{ status: 'updated'; card: string | null }>(
      provider,
      post,
      name,
    );
    if (outcome.status === 'refused')
      return { status: 'error', message: refusalText(copy, outcome.error) };
    if (outcome.status !== 'updated') return outcome;
    setCard(outcome.card ?? card);
    setOpen(false);
    setUpdated(true);
    return null;
  };
  return (
    <section className="card-update" aria-label={copy.paidWith}>
      <CardRow label={copy.paidWith} card={paid?.card ?? card} />
      {updated ? (
        <p className="card-update__done" role="status" tabIndex={-1} ref={focused}>
          {copy.updatedTitle}
        </p>
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
            setUpdated(false);
            setOpen(true);
          }}
        >
          {copy.open}
        </button>
      )}
    </section>
  );
}
