import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Currency } from '../shared/plans/currency';
import { formatMoney } from '../shared/plans/money';
import { navigate } from './boot';
import { useAfterHydration } from './kit/use-after-hydration';
import { paidWithLabel } from './payments/paid-with';
import { $checkout } from './stores/checkout';
import { $receipts, type Receipt } from './stores/receipt';

/** Where the renewal's amount goes in `ReceiptPlanCopy.renewal`, filled in the browser. */
export const PRICE_SLOT = '{{price}}';

/** A plan as the receipt names it, put into words on the server from the catalogue. */
export interface ReceiptPlanCopy {
  name: string;
  /** How it renews, with PRICE_SLOT for the amount ('{{price}} every month'); null if one-time. */
  renewal: string | null;
}

export interface PaymentReceiptProps {
  /**
   * 'dialog': the checkout's popup after a main charge; 'summary': success's order summary,
   * with the upsells bought after it.
   */
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
    /** The row of a purchase whose renewal the visitor ticked the box to agree to. */
    renewalAgreed: string;
    paidWith: string;
    receiptTo: string;
    cancel: string;
    /** The same with the subscriber's page named first, shown above its link. */
    cancelOnline: string;
    /** The link to the subscriber's page: "Manage or cancel your subscription". */
    manage: string;
    /** The row naming the purchase's order reference (its subscription's id). */
    reference: string;
    /** The contract page's two links, in their statutory wording (SupportLinks's). */
    withdraw: string;
    cancelContracts: string;
    continue: string;
  };
  /**
   * The contract page in the page's brand (shared/contract-page.ts): withdraw and cancel with the
   * email and the order reference the receipt shows, without a login.
   */
  contractLinks: { withdraw: string; cancel: string };
}

type Row = [label: string, value: string, detail?: string];

/** Values written left to right whatever the page's direction: a card's label, an email. */
type LtrRow = [label: string, value: string, kind: 'card' | 'email'];

/** A day in the page's language (a renewal, a consent): the worker dated it, the page only writes it. */
function longDay(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(iso));
}

const money = (amount: number, currency: string, language: string) =>
  formatMoney(amount, currency as Currency, language);

/** One purchase's rows: its plan, what it took, and what renews when and at what price. */
function purchaseRows(receipt: Receipt, props: PaymentReceiptProps): Row[] {
  const { copy, language } = props;
  const plan = props.plans[receipt.planId];
  const rows: Row[] = [];
  if (plan) rows.push([copy.plan, plan.name]);
  // What the contract page asks for with the email: the withdrawal and the cancellation name it.
  if (receipt.subscriptionId) rows.push([copy.reference, receipt.subscriptionId]);
  rows.push([copy.paid, money(receipt.amount, receipt.currency, language)]);
  if (plan?.renewal && receipt.renewsAt && receipt.renewalAmount !== null) {
    const price = money(receipt.renewalAmount, receipt.currency, language);
    rows.push([
      copy.renews,
      longDay(receipt.renewsAt, language),
      plan.renewal.replace(PRICE_SLOT, price),
    ]);
  }
  // The express consent the visitor's country asked of this purchase (shared/plans/
  // renewal-consent.ts), repeated with its day; a purchase that asked none (a one-time guide, a
  // visitor outside the US) has no such row.
  if (plan?.renewal && receipt.renewalAgreedAt) {
    rows.push([copy.renewalAgreed, longDay(receipt.renewalAgreedAt, language)]);
  }
  return rows;
}

/** What the purchases have in common: the method they were taken from, where receipts go. */
function commonRows(receipt: Receipt, { copy }: PaymentReceiptProps): LtrRow[] {
  const rows: LtrRow[] = [];
  if (receipt.paidWith) rows.push([copy.paidWith, paidWithLabel(receipt.paidWith), 'card']);
  if (receipt.email) rows.push([copy.receiptTo, receipt.email, 'email']);
  return rows;
}

/**
 * An email address that wraps only where an address may: before its '@' (each part breaks
 * inside itself only when it alone is wider than the line), never mid-word.
 */
function EmailValue({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span className="receipt__email-part">{email}</span>;
  return (
    <>
      <span className="receipt__email-part">{email.slice(0, at)}</span>
      <wbr />
      <span className="receipt__email-part">{email.slice(at)}</span>
    </>
  );
}

/** A list of rows: each a label and what the charge and the catalogue say. */
function ReceiptRows({ rows, ltr = [] }: { rows: Row[]; ltr?: LtrRow[] }) {
  if (rows.length === 0 && ltr.length === 0) return null;
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
      {ltr.map(([label, value, kind]) => (
        <div className="receipt__row" key={label}>
          <dt>{label}</dt>
          <dd>
            <bdi dir="ltr">{kind === 'email' ? <EmailValue email={value} /> : value}</bdi>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The worker's link to the subscriber's page, only if it is one: a path of this origin's
 * `/subscription/` (the kept receipt is the page's storage, which anything on the page could edit).
 */
function manageHref(receipt: Receipt): string | null {
  const url = receipt.manageUrl;
  if (!url) return null;
  try {
    const parsed = new URL(url, location.origin);
    return parsed.origin === location.origin && parsed.pathname.startsWith('/subscription/')
      ? parsed.href
      : null;
  } catch {
    return null;
  }
}

/**
 * How to cancel: the words, and the link to the subscriber's page where the worker gave one (the
 * words then name it first: online cancellation as easy as the sign-up, as California's law asks). It
 * opens in a new tab from the checkout's dialog, so the flow the visitor is in stays where it is.
 */
function CancelNote({ receipt, props }: { receipt: Receipt; props: PaymentReceiptProps }) {
  const href = manageHref(receipt);
  const newTab = props.mode === 'dialog' ? '_blank' : undefined;
  return (
    <>
      <p className="receipt__cancel">{href ? props.copy.cancelOnline : props.copy.cancel}</p>
      {href ? (
        <p className="receipt__manage">
          <a href={href} id="manage-subscription" target={newTab} rel="noopener noreferrer">
            {props.copy.manage}
          </a>
        </p>
      ) : null}
      <p className="receipt__manage receipt__contract">
        <a href={props.contractLinks.withdraw} target={newTab} rel="noopener noreferrer">
          {props.copy.withdraw}
        </a>
        <a href={props.contractLinks.cancel} target={newTab} rel="noopener noreferrer">
          {props.copy.cancelContracts}
        </a>
      </p>
    </>
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
  // Stays an effect: it opens the dialog element.
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
      <ReceiptRows rows={purchaseRows(receipt, props)} ltr={commonRows(receipt, props)} />
      <CancelNote receipt={receipt} props={props} />
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
 * What the purchases took, from their kept receipts (islands/stores/receipt.ts): the checkout's
 * dialog once the main charge succeeded, or success's order summary, the main purchase first and
 * then each upsell bought after it. Nothing on the server, which knows no receipt, nor before
 * hydration, so the first render matches its HTML.
 */
export default function PaymentReceipt(props: PaymentReceiptProps) {
  const mounted = useAfterHydration();
  const { main, added } = useStore($receipts);
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
      {[main, ...added].map((receipt) => (
        <ReceiptRows key={receipt.subscriptionId} rows={purchaseRows(receipt, props)} />
      ))}
      <ReceiptRows rows={[]} ltr={commonRows(main, props)} />
      <CancelNote receipt={main} props={props} />
    </section>
  );
}
