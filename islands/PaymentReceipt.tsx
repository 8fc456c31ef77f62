import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Currency } from '../shared/plans/currency';
import { formatMoney } from '../shared/plans/money';
import { navigate } from './boot';
import { useAfterHydration } from './kit/use-after-hydration';
import { paidWithLabel } from './payments/paid-with';
import { $checkout } from './stores/checkout';
import { $receipt, type Receipt } from './stores/receipt';

/** A plan as the receipt names it, put into words on the server from the catalogue. */
export interface ReceiptPlanCopy {
  name: string;
  /** What it renews at ('$39.99 every month'); null for a one-time purchase. */
  renewal: string | null;
  /** When the first renewal falls after the charge: an intro's days, else the period's months. */
  renewsAfter: { days: number } | { months: number } | null;
}

export interface PaymentReceiptProps {
  /** 'dialog': the checkout's popup after a main charge; 'summary': success's order summary. */
  mode: 'dialog' | 'summary';
  /** Where the dialog's Continue leads: the flow's next screen (the upsell or success). */
  next: string;
  language: string;
  /** The plans this receipt may be for, by plan id. */
  plans: Record<string, ReceiptPlanCopy>;
  copy: {
    title: string;
    lead: string;
    plan: string;
    paid: string;
    renews: string;
    paidWith: string;
    receiptTo: string;
    cancel: string;
    continue: string;
  };
}

/** The day of the first renewal, in the page's language: months are calendar months. */
function renewalDay(
  chargedAt: number,
  after: { days: number } | { months: number },
  language: string,
) {
  const date = new Date(chargedAt);
  if ('days' in after) date.setDate(date.getDate() + after.days);
  else date.setMonth(date.getMonth() + after.months);
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(date);
}

/** The receipt's rows: each a label and what the charge and the catalogue say. */
function ReceiptRows({ receipt, props }: { receipt: Receipt; props: PaymentReceiptProps }) {
  const { copy, language } = props;
  const plan = props.plans[receipt.planId];
  const rows: [string, string, string?][] = [];
  if (plan) rows.push([copy.plan, plan.name]);
  const paid = formatMoney(
    Math.round(receipt.amount * 100),
    receipt.currency as Currency,
    language,
  );
  rows.push([copy.paid, paid]);
  if (plan?.renewal && plan.renewsAfter) {
    const day = renewalDay(receipt.chargedAt, plan.renewsAfter, language);
    rows.push([copy.renews, day, plan.renewal]);
  }
  if (receipt.paidWith) rows.push([copy.paidWith, paidWithLabel(receipt.paidWith)]);
  if (receipt.email) rows.push([copy.receiptTo, receipt.email]);
  return (
    <dl className="receipt__rows">
      {rows.map(([label, value, detail]) => (
        <div className="receipt__row" key={label}>
          <dt>{label}</dt>
          <dd>
            <bdi>{value}</bdi>
            {detail ? (
              <span className="receipt__detail">
                <bdi>{detail}</bdi>
              </span>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The checkout's confirmation (SPEC.md §3 showSuccessPopup): a modal dialog, so screen readers
 * announce its title and lead as focus moves to Continue. Escape is Continue too: the purchase is
 * over, and the visitor must not be left on a checkout whose Pay is held.
 */
function ReceiptDialog({ receipt, props }: { receipt: Receipt; props: PaymentReceiptProps }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  function proceed() {
    if (leaving) return;
    setLeaving(true);
    $checkout.set({ ...$checkout.get(), showSuccessPopup: false });
    navigate(props.next);
  }
  return (
    <dialog
      ref={dialog}
      className="receipt receipt--dialog"
      aria-labelledby="receipt-title"
      aria-describedby="receipt-lead"
      onCancel={(event) => {
        event.preventDefault();
        proceed();
      }}
    >
      <h2 id="receipt-title" className="receipt__title">
        <span className="receipt__tick" aria-hidden="true" />
        {props.copy.title}
      </h2>
      <p id="receipt-lead" className="receipt__lead">
        {props.copy.lead}
      </p>
      <ReceiptRows receipt={receipt} props={props} />
      <p className="receipt__cancel">{props.copy.cancel}</p>
      <button
        type="button"
        className="button button--primary"
        // biome-ignore lint/a11y/noAutofocus: the modal dialog's one action, focused as it opens.
        autoFocus
        aria-busy={leaving || undefined}
        onClick={proceed}
      >
        {props.copy.continue}
      </button>
    </dialog>
  );
}

/**
 * What the main purchase took, from its kept receipt (islands/stores/receipt.ts): the checkout's
 * dialog once the charge succeeded, or success's order summary. Nothing on the server, which
 * knows no receipt, nor before hydration, so the first render matches its HTML.
 */
export default function PaymentReceipt(props: PaymentReceiptProps) {
  const mounted = useAfterHydration();
  const { main } = useStore($receipt);
  const { showSuccessPopup } = useStore($checkout);
  if (!mounted || !main) return null;
  if (props.mode === 'dialog') {
    return showSuccessPopup ? <ReceiptDialog receipt={main} props={props} /> : null;
  }
  return (
    <section className="receipt receipt--summary" aria-labelledby="receipt-summary-title">
      <h2 id="receipt-summary-title" className="receipt__title">
        {props.copy.title}
      </h2>
      <ReceiptRows receipt={main} props={props} />
      <p className="receipt__cancel">{props.copy.cancel}</p>
    </section>
  );
}
