import type { TFunction } from 'i18next';
import type { PayDueProps } from '../../islands/PayDue';
import type { UpdateCardProps } from '../../islands/UpdateCard';
import type { Brand } from '../../shared/brand';
import type { Theme } from '../../shared/theme';
import { SupportLinks } from '../kit/SupportLinks';
import { Island } from '../layout/Island';
import { Page } from '../layout/Page';
import { CARD_FORM_CSS } from '../plans/styles/checkout';
import { RECEIPT_CSS } from '../plans/styles/receipt';

/**
 * The subscriber's page (`/subscription/<token>`, worker/subscriber-links/): the subscription a
 * signed link names, in the funnel's kit, and the ways out of it. Every action is a plain form
 * posted to the worker, so it works without script, by keyboard, and in any mail app's browser;
 * the worker has put every amount and date into the page's language already. Paying what a
 * failed renewal left due and updating the card are the exceptions: a card form only its
 * provider's script makes.
 */

/** A row of the subscription: what it is, and its value (a card or an amount, left to right). */
export interface SubscriberRow {
  label: string;
  value: string;
  /** Written left to right whatever the page's direction (a card's label). */
  ltr?: boolean;
}

/** The save offer the marketer set (content `saveOffer`), put into words on the server. */
export interface SaveOfferCopy {
  title: string;
  text: string;
  /** Its action's button, where the offer does one that fits the subscription; else none. */
  take?: { action: string; label: string } | null;
}

/** A reason for leaving the cancel's confirm offers, by its key, in the page's language. */
export interface LeavingReason {
  key: string;
  label: string;
}

/**
 * A renewing add-on bought with the subscription (its own subscription in the product API),
 * under the plan: its name, its rows, and its own actions, from a manage link.
 */
export interface AddOnSection {
  /** Its subscription's id in the product API. */
  id: string;
  /** Its plan's name in the page's language: the section's heading. */
  name: string;
  rows: SubscriberRow[];
  /** Its status in words, once it has ended or ends; null while it renews. */
  status: string | null;
  /** Its cancel's confirm, while it renews; null otherwise. */
  cancelPath: string | null;
  /** Its money-back claim, while the guarantee's terms apply to it; with the day they end. */
  guarantee: { action: string; until: string } | null;
}

/** The field a cancel's reason for leaving is posted in (worker/subscriber-links/). */
export const REASON_FIELD = 'reason';

export type SubscriberView =
  /** The subscription, and its actions. */
  | {
      kind: 'overview';
      rows: SubscriberRow[];
      /** Null when it no longer renews (canceled, refunded): no cancel to offer. */
      cancelPath: string | null;
      /** The guarantee's claim form, where its terms apply; with the day they end. */
      guarantee: { action: string; until: string } | null;
      /** Its status in words, for a subscription that has ended or ends. */
      status: string | null;
      /** A recovery link's card form for what is due (islands/PayDue.tsx); null otherwise. */
      payDue: PayDueProps | null;
      /** A manage link's card row with Update card (islands/UpdateCard.tsx); null otherwise. */
      updateCard: UpdateCardProps | null;
      /** The renewing add-ons bought with it, each on its own; none, none. */
      addOns: AddOnSection[];
    }
  /** One confirm before the cancel, with the marketer's save offer once, if any. */
  | {
      kind: 'confirm';
      action: string;
      back: string;
      saveOffer: SaveOfferCopy | null;
      /** The marketer's reasons for leaving, one of which may go with the cancel; none, none. */
      reasons: LeavingReason[];
      /** That the add-ons renew on their own, where some still renew; else none. */
      addOnsNote?: string | null;
    }
  /**
   * One confirm before the money-back claim: what goes back (the first payment, in the page's
   * language; null when the product API names no currency) and what happens to the subscription.
   */
  | {
      kind: 'claim_confirm';
      action: string;
      back: string;
      amount: string | null;
      /** That the add-ons renew on their own, where some still renew; else none. */
      addOnsNote?: string | null;
    }
  /**
   * One confirm before an add-on's action (its cancel, its money back), in words put together
   * on the server: what it does, the button that does it, and the way back.
   */
  | {
      kind: 'add_on_confirm';
      title: string;
      lead: string;
      action: string;
      confirm: string;
      back: { href: string; text: string };
      /** A hidden field the post carries (a claim's confirm). */
      field?: { name: string; value: string };
    }
  /** An action done: what it came to, and the way back where the subscription goes on. */
  | { kind: 'done'; title: string; lead: string; back?: { href: string; text: string } }
  /**
   * A link that cannot open the page, or a product API that could not answer; for a link that
   * no longer opens, the way to "Email me a link to my subscription".
   */
  | { kind: 'refused'; title: string; lead: string; emailLink?: { text: string; href: string } };

export interface SubscriberPageProps {
  t: TFunction;
  brand: Brand;
  /** The brand's theme, for the footer's links to the contract page in the same brand. */
  theme: Theme;
  view: SubscriberView;
}

/** Rows as the receipt draws them: the subscription's here, the contract page's acknowledgement. */
export function Rows({ rows, className }: { rows: readonly SubscriberRow[]; className?: string }) {
  return (
    <dl className={className ? `receipt__rows ${className}` : 'receipt__rows'}>
      {rows.map((row) => (
        <div className="receipt__row" key={row.label}>
          <dt>{row.label}</dt>
          <dd>
            <bdi dir={row.ltr ? 'ltr' : undefined}>{row.value}</bdi>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The field a claim's confirm posts: the claim's first post (the overview's button) only asks,
 * this one refunds (worker/subscriber-links/subscriber-route.tsx).
 */
export const CLAIM_CONFIRM_FIELD = { name: 'confirm', value: 'refund' } as const;

/** A form of one button that posts to the worker (the worker's same-origin rule guards it). */
function ActionForm({
  action,
  label,
  secondary = false,
  id,
  field,
  describedBy,
}: {
  action: string;
  label: string;
  secondary?: boolean;
  id?: string;
  /** A hidden field the post carries (a claim's confirm). */
  field?: { name: string; value: string };
  /** The id of what the button's action does, read with its label. */
  describedBy?: string;
}) {
  return (
    <form method="post" action={action} className="subscriber__form">
      {field ? <input type="hidden" name={field.name} value={field.value} /> : null}
      <button
        type="submit"
        id={id}
        aria-describedby={describedBy}
        className={secondary ? 'button subscriber__secondary' : 'button button--primary'}
      >
        {label}
      </button>
    </form>
  );
}

function Overview({
  t,
  view,
}: {
  t: TFunction;
  view: Extract<SubscriberView, { kind: 'overview' }>;
}) {
  return (
    <>
      <h1 id="screen-title">{t('subscriber.title')}</h1>
      {view.status ? <p className="lead">{view.status}</p> : null}
      <section className="receipt receipt--summary" aria-labelledby="screen-title">
        <Rows rows={view.rows} />
        {view.updateCard ? <Island name="UpdateCard" props={view.updateCard} /> : null}
      </section>
      {view.payDue ? <Island name="PayDue" props={view.payDue} /> : null}
      {view.cancelPath ? (
        <a className="button subscriber__secondary" id="cancel-subscription" href={view.cancelPath}>
          {t('subscriber.cancel.open')}
        </a>
      ) : null}
      {view.guarantee ? (
        <section className="subscriber__guarantee" aria-labelledby="guarantee-title">
          <h2 id="guarantee-title">{t('plans.guarantee.title')}</h2>
          <p>{t('subscriber.guarantee.lead', { date: view.guarantee.until })}</p>
          <ActionForm
            action={view.guarantee.action}
            label={t('subscriber.guarantee.claim')}
            secondary
            id="claim-guarantee"
          />
        </section>
      ) : null}
      {/* After the plan's own actions: a heading scopes what follows it, so a screen reader
          hears each add-on's actions under the add-on's name, never the plan's under one. */}
      {view.addOns.map((addOn, index) => (
        <AddOn t={t} addOn={addOn} index={index} key={addOn.id} />
      ))}
    </>
  );
}

/**
 * An add-on's section: its name, its rows, and its cancel and money-back claim, each button
 * read with the add-on's name (the heading describes it), as several add-ons share the labels.
 */
function AddOn({ t, addOn, index }: { t: TFunction; addOn: AddOnSection; index: number }) {
  const heading = `add-on-${index}`;
  return (
    <section className="receipt receipt--summary subscriber__add-on" aria-labelledby={heading}>
      <h2 className="receipt__title" id={heading}>
        {addOn.name}
      </h2>
      {addOn.status ? <p className="receipt__lead">{addOn.status}</p> : null}
      <Rows rows={addOn.rows} />
      {addOn.cancelPath ? (
        <a
          className="button subscriber__secondary"
          id={`cancel-add-on-${index}`}
          aria-describedby={heading}
          href={addOn.cancelPath}
        >
          {t('subscriber.add_ons.cancel_open')}
        </a>
      ) : null}
      {addOn.guarantee ? (
        <div className="subscriber__guarantee">
          <h3>{t('plans.guarantee.title')}</h3>
          <p id={`${heading}-guarantee`}>
            {t('subscriber.add_ons.guarantee_lead', { date: addOn.guarantee.until })}
          </p>
          <ActionForm
            action={addOn.guarantee.action}
            label={t('subscriber.guarantee.claim')}
            secondary
            id={`claim-add-on-${index}`}
            describedBy={`${heading} ${heading}-guarantee`}
          />
        </div>
      ) : null}
    </section>
  );
}

function Confirm({
  t,
  view,
}: {
  t: TFunction;
  view: Extract<SubscriberView, { kind: 'confirm' }>;
}) {
  return (
    <>
      <h1 id="screen-title">{t('subscriber.cancel.title')}</h1>
      <p className="lead">{t('subscriber.cancel.lead')}</p>
      {view.addOnsNote ? <p className="subscriber__note">{view.addOnsNote}</p> : null}
      {view.saveOffer ? <SaveOffer t={t} offer={view.saveOffer} back={view.back} /> : null}
      <CancelForm
        t={t}
        action={view.action}
        reasons={view.reasons}
        secondary={view.saveOffer !== null}
      />
      {view.saveOffer ? null : (
        <a className="subscriber__back" href={view.back}>
          {t('subscriber.cancel.back')}
        </a>
      )}
    </>
  );
}

/** The offer: its words, its action's one button if it has one, and Keep my subscription. */
function SaveOffer({ t, offer, back }: { t: TFunction; offer: SaveOfferCopy; back: string }) {
  return (
    <section className="subscriber__offer" aria-labelledby="save-offer-title">
      <h2 id="save-offer-title">{offer.title}</h2>
      <p id="save-offer-text">{offer.text}</p>
      {offer.take ? (
        <ActionForm
          action={offer.take.action}
          label={offer.take.label}
          id="take-offer"
          describedBy="save-offer-text"
        />
      ) : null}
      <a
        className={offer.take ? 'button subscriber__secondary' : 'button button--primary'}
        href={back}
      >
        {t('subscriber.save_offer.keep')}
      </a>
    </section>
  );
}

/**
 * The cancel's form: the marketer's reasons for leaving, if any, as one optional choice (a
 * radio group a tap or the arrow keys answer), then the button that cancels.
 */
function CancelForm({
  t,
  action,
  reasons,
  secondary,
}: {
  t: TFunction;
  action: string;
  reasons: readonly LeavingReason[];
  secondary: boolean;
}) {
  return (
    <form method="post" action={action} className="subscriber__form">
      {reasons.length > 0 ? (
        <fieldset className="subscriber__reasons">
          <legend>{t('subscriber.save_offer.reasons_legend')}</legend>
          {reasons.map((reason) => (
            <label key={reason.key} className="subscriber__reason">
              <input type="radio" name={REASON_FIELD} value={reason.key} />
              <span>{reason.label}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <button
        type="submit"
        id="confirm-cancel"
        className={secondary ? 'button subscriber__secondary' : 'button button--primary'}
      >
        {t('subscriber.cancel.confirm')}
      </button>
    </form>
  );
}

/**
 * The money-back claim's one confirm (SPEC.md §1, §9: the 100% money-back guarantee): the
 * amount and what the refund does, then the button that claims it and the way back. Focus starts
 * on the question, so a keyboard or screen reader user lands where the page asks; the button is
 * read with what it does.
 */
function ClaimConfirm({
  t,
  view,
}: {
  t: TFunction;
  view: Extract<SubscriberView, { kind: 'claim_confirm' }>;
}) {
  return (
    <>
      {/* biome-ignore lint/a11y/noAutofocus: a page of one question, focused as it opens. */}
      <h1 id="screen-title" tabIndex={-1} autoFocus>
        {t('subscriber.guarantee.confirm_title')}
      </h1>
      <p className="lead" id="claim-effect">
        {view.amount === null
          ? t('subscriber.guarantee.confirm_lead_plain')
          : t('subscriber.guarantee.confirm_lead', { amount: view.amount })}
      </p>
      {view.addOnsNote ? <p className="subscriber__note">{view.addOnsNote}</p> : null}
      <ActionForm
        action={view.action}
        label={t('subscriber.guarantee.confirm')}
        id="confirm-guarantee"
        field={CLAIM_CONFIRM_FIELD}
        describedBy="claim-effect"
      />
      <a className="subscriber__back" href={view.back}>
        {t('subscriber.cancel.back')}
      </a>
    </>
  );
}

/**
 * An add-on's one confirm, as the claim's: focus on its question as it opens, the button read
 * with what it does, and the way back to the subscription.
 */
function AddOnConfirm({ view }: { view: Extract<SubscriberView, { kind: 'add_on_confirm' }> }) {
  return (
    <>
      {/* biome-ignore lint/a11y/noAutofocus: a page of one question, focused as it opens. */}
      <h1 id="screen-title" tabIndex={-1} autoFocus>
        {view.title}
      </h1>
      <p className="lead" id="add-on-effect">
        {view.lead}
      </p>
      <ActionForm
        action={view.action}
        label={view.confirm}
        id="confirm-add-on"
        field={view.field}
        describedBy="add-on-effect"
      />
      <a className="subscriber__back" href={view.back.href}>
        {view.back.text}
      </a>
    </>
  );
}

/** The page's body in the kit's chrome (top bar with the brand's logo, the page container). */
export function SubscriberPage({ t, brand, theme, view }: SubscriberPageProps) {
  return (
    <Page t={t} brand={brand}>
      <section className="screen subscriber" aria-labelledby="screen-title">
        {view.kind === 'overview' ? <Overview t={t} view={view} /> : null}
        {view.kind === 'confirm' ? <Confirm t={t} view={view} /> : null}
        {view.kind === 'claim_confirm' ? <ClaimConfirm t={t} view={view} /> : null}
        {view.kind === 'add_on_confirm' ? <AddOnConfirm view={view} /> : null}
        {view.kind === 'done' || view.kind === 'refused' ? (
          <>
            <h1 id="screen-title">{view.title}</h1>
            <p className="lead">{view.lead}</p>
            {view.kind === 'done' && view.back ? (
              <a className="button button--primary" id="back-to-subscription" href={view.back.href}>
                {view.back.text}
              </a>
            ) : null}
            {view.kind === 'refused' && view.emailLink ? (
              <a className="button button--primary" id="email-link" href={view.emailLink.href}>
                {view.emailLink.text}
              </a>
            ) : null}
          </>
        ) : null}
        <SupportLinks t={t} brand={brand} theme={theme} />
      </section>
    </Page>
  );
}

/** The page's own CSS, after the kit's: the receipt's rows, the card form, its forms and boxes. */
export const SUBSCRIBER_CSS = `${RECEIPT_CSS}${CARD_FORM_CSS}
.subscriber .receipt--summary{margin:0 0 24px}
.subscriber__form{margin:0 0 12px}
.subscriber__secondary{background:transparent;color:var(--ink);box-shadow:inset 0 0 0 2px var(--ink);
  text-decoration:none;margin:0 0 12px}
.subscriber__guarantee,.subscriber__offer{margin:24px 0;padding:16px;border-radius:12px;background:var(--surface)}
.subscriber__guarantee h2,.subscriber__offer h2,.subscriber__guarantee h3{margin:0 0 8px;font-size:18px}
.pay-due{margin:0 0 24px}
.card-update{margin:0}
.card-update .subscriber__secondary{margin:12px 0 0}
.card-update .pay-due{margin:16px 0 0}
.card-update__done{margin:12px 0 0;padding:4px;font-weight:600}
.pay-due h2{margin:0 0 12px;font-size:18px}
.pay-due__amount{margin:0 0 16px}
.pay-due__problem{margin:0 0 12px;color:#b42318}
.pay-due__problem:empty{margin:0}
.pay-due__problem ul{margin:4px 0 0;padding-inline-start:20px}
.subscriber__offer .subscriber__form{margin:12px 0}
.subscriber__offer .button{height:auto;min-height:56px;padding-block:10px;line-height:1.25;text-align:center}
.subscriber__reasons{margin:0 0 16px;padding:0;border:0}
.subscriber__reasons legend{margin:0 0 8px;font-weight:600}
.subscriber__reason{display:flex;gap:10px;align-items:center;min-height:44px;padding:0 4px;cursor:pointer}
.subscriber__reason input{width:20px;height:20px;margin:0;accent-color:var(--accent,currentColor)}
.subscriber__back{display:block;margin:8px 0 24px;text-align:center;color:var(--ink)}
.subscriber__note{margin:0 0 16px;padding:12px 16px;border-radius:12px;background:var(--surface)}
.subscriber__add-on .subscriber__secondary{margin:4px 0 12px}
`;
