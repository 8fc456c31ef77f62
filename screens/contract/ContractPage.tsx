import type { TFunction } from 'i18next';
import type { Brand } from '../../shared/brand';
import type { ContractPageName } from '../../shared/contract-page';
import type { Theme } from '../../shared/theme';
import { SupportLinks } from '../kit/SupportLinks';
import { Page } from '../layout/Page';
import { RECEIPT_CSS } from '../plans/styles/receipt';
import { Rows, type SubscriberRow } from '../subscriber/SubscriberPage';

/**
 * The contract page (`/contract/withdraw`, `/contract/cancel`, worker/contract-page/): the EU's
 * withdrawal function (Consumer Rights Directive Art. 11a) and Germany's cancellation button
 * (§ 312k BGB), reached from every page's footer without logging in. One form asks only for what
 * identifies the consumer and the contract (the email and the order reference; the name
 * optional; for a cancellation whether it is ordinary or extraordinary, and the latter's reason),
 * and its one button is the confirmation ("Confirm withdrawal", "jetzt kündigen"). The answer is
 * the acknowledgement: the statement, with the date and time it was received. A plain form
 * posted to the worker: it works without script, by keyboard, in any browser.
 */

/** Which page: a withdrawal, a cancellation, or "Email me a link" (the email alone). */
export type ContractPageKind = ContractPageName;

/** What the visitor typed, given back to the form after a refusal. */
export interface ContractFormValues {
  email: string;
  reference: string;
  name: string;
  /** A cancellation's type: `ordinary` unless the visitor chose `extraordinary`. */
  type: 'ordinary' | 'extraordinary';
  reason: string;
  /** An ordinary cancellation's day (YYYY-MM-DD), or '' for the earliest possible. */
  endDate: string;
}

/** The form's fields the worker refused, each with its message in the page's language. */
export type ContractFormErrors = Partial<
  Record<'email' | 'reference' | 'reason' | 'end_date', string>
>;

/** The page's copy, put into words by the worker in the page's language. */
export interface ContractCopy {
  title: string;
  lead: string;
  email: string;
  reference: string;
  referenceHint: string;
  name: string;
  type: string;
  ordinary: string;
  extraordinary: string;
  reason: string;
  endDate: string;
  endDateHint: string;
  confirm: string;
  /** The way to "Email me a link to my subscription", under a declaration's form; null on its own page. */
  linkAsk: { text: string; href: string } | null;
}

export type ContractView =
  | {
      kind: 'form';
      page: ContractPageKind;
      action: string;
      copy: ContractCopy;
      values: ContractFormValues;
      errors: ContractFormErrors;
      /** The declaration's one-time key, so a double press declares once. */
      declaration: string;
      /** Today (YYYY-MM-DD, UTC): the first day a cancellation may be asked for. */
      today: string;
    }
  /** The acknowledgement: what was declared, and when it was received. */
  | {
      kind: 'received';
      title: string;
      lead: string;
      rows: readonly SubscriberRow[];
      keep: string;
    }
  | { kind: 'refused'; title: string; lead: string };

/** The hidden field that carries the declaration's key. */
export const DECLARATION_FIELD = 'declaration';

interface ContractPageProps {
  t: TFunction;
  brand: Brand;
  theme: Theme;
  view: ContractView;
}

function TextField({
  id,
  label,
  value,
  error,
  hint,
  type = 'text',
  min,
  autoComplete,
  required = false,
  focus = false,
}: {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  type?: 'text' | 'email' | 'date';
  /** A date field's first day it takes (YYYY-MM-DD). */
  min?: string;
  autoComplete?: string;
  required?: boolean;
  focus?: boolean;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return (
    <div className={error ? 'email-input email-input--error' : 'email-input'}>
      <label className="email-input__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p className="contract__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        className="email-input__field"
        id={id}
        name={id}
        type={type}
        min={min}
        defaultValue={value}
        autoComplete={autoComplete}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described.length > 0 ? described.join(' ') : undefined}
        // biome-ignore lint/a11y/noAutofocus: the first field the worker refused, after a post.
        autoFocus={focus}
      />
      {error ? (
        <p className="email-input__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * What § 312k BGB lets a cancellation page ask beyond the contract: ordinary or extraordinary,
 * the day an ordinary one ends on, and an extraordinary one's reason.
 */
function CancellationFields({
  view,
  focus,
}: {
  view: Extract<ContractView, { kind: 'form' }>;
  focus: keyof ContractFormErrors | null;
}) {
  const { copy, values, errors } = view;
  return (
    <>
      <fieldset className="contract__type">
        <legend className="email-input__label">{copy.type}</legend>
        {(['ordinary', 'extraordinary'] as const).map((type) => (
          <label className="contract__choice" key={type}>
            <input type="radio" name="type" value={type} defaultChecked={values.type === type} />{' '}
            {copy[type]}
          </label>
        ))}
      </fieldset>
      <TextField
        id="end_date"
        label={copy.endDate}
        hint={copy.endDateHint}
        value={values.endDate}
        error={errors.end_date}
        type="date"
        min={view.today}
        focus={focus === 'end_date'}
      />
      <TextField
        id="reason"
        label={copy.reason}
        value={values.reason}
        error={errors.reason}
        focus={focus === 'reason'}
      />
    </>
  );
}

function ContractForm({ view }: { view: Extract<ContractView, { kind: 'form' }> }) {
  const { copy, values, errors } = view;
  const firstError = (['email', 'reference', 'end_date', 'reason'] as const).find(
    (field) => errors[field],
  );
  return (
    <>
      {/* biome-ignore lint/a11y/noAutofocus: a page of one form, its title read as it opens. */}
      <h1 id="screen-title" tabIndex={-1} autoFocus={firstError === undefined}>
        {copy.title}
      </h1>
      <p className="lead">{copy.lead}</p>
      <form method="post" action={view.action} className="contract__form" noValidate>
        <input type="hidden" name={DECLARATION_FIELD} value={view.declaration} />
        <TextField
          id="email"
          label={copy.email}
          value={values.email}
          error={errors.email}
          type="email"
          autoComplete="email"
          required
          focus={firstError === 'email'}
        />
        {view.page === 'link' ? null : (
          <>
            <TextField
              id="reference"
              label={copy.reference}
              hint={copy.referenceHint}
              value={values.reference}
              error={errors.reference}
              required
              focus={firstError === 'reference'}
            />
            <TextField id="name" label={copy.name} value={values.name} autoComplete="name" />
          </>
        )}
        {view.page === 'cancel' ? (
          <CancellationFields view={view} focus={firstError ?? null} />
        ) : null}
        <button type="submit" id="confirm-declaration" className="button button--primary">
          {copy.confirm}
        </button>
      </form>
      {copy.linkAsk ? (
        <p className="contract__link-ask">
          <a href={copy.linkAsk.href}>{copy.linkAsk.text}</a>
        </p>
      ) : null}
    </>
  );
}

/** The page's body in the kit's chrome (top bar with the brand's logo, the page container). */
export function ContractPage({ t, brand, theme, view }: ContractPageProps) {
  return (
    <Page t={t} brand={brand}>
      <section className="screen contract" aria-labelledby="screen-title">
        {view.kind === 'form' ? <ContractForm view={view} /> : null}
        {view.kind === 'received' ? (
          <>
            {/* biome-ignore lint/a11y/noAutofocus: the acknowledgement, read as it opens. */}
            <h1 id="screen-title" tabIndex={-1} autoFocus>
              {view.title}
            </h1>
            <p className="lead">{view.lead}</p>
            {view.rows.length > 0 ? (
              <Rows rows={view.rows} className="contract__acknowledgement" />
            ) : null}
            <p className="contract__keep">{view.keep}</p>
          </>
        ) : null}
        {view.kind === 'refused' ? (
          <>
            <h1 id="screen-title">{view.title}</h1>
            <p className="lead">{view.lead}</p>
          </>
        ) : null}
        <SupportLinks t={t} brand={brand} theme={theme} />
      </section>
    </Page>
  );
}

/** The page's own CSS, after the kit's: the receipt's rows, its form. */
export const CONTRACT_PAGE_CSS = `${RECEIPT_CSS}
.contract__form{margin:0 0 24px}
.contract__hint{margin:0 0 6px;font-size:14px}
.contract__type{margin:0 0 16px;padding:0;border:0}
.contract__choice{display:flex;gap:8px;align-items:flex-start;margin:0 0 8px;font-size:15px}
.contract__choice input{width:20px;height:20px;margin:2px 0 0;flex:none}
.contract__acknowledgement{margin:0 0 16px}
.contract__acknowledgement dd{white-space:pre-wrap}
.contract__acknowledgement .receipt__row:first-child{display:block}
.contract__acknowledgement .receipt__row:first-child dd{margin:4px 0 0;text-align:start}
.contract__keep{margin:0 0 24px}
.contract__link-ask{margin:0 0 24px;text-align:center}
.contract__link-ask a{color:var(--ink)}
`;
