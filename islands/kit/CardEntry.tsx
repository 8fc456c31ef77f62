import {
  type FormEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import type { DeclineClass } from '../../shared/decline-class';
import { CARD_FIELDS_DEADLINE_MS, withinDeadline } from '../payments/card-fields-deadline';
import type { CardPostCopy, CardPostOutcome } from '../payments/card-post';
import type { CardFieldLabels, CardProvider } from '../payments/provider';
import type { PaymentSettings } from '../payments/providers';
import type { TestGatewayCopy } from '../payments/providers/test-gateway';
import { CardholderNameField } from './CardholderNameField';

/**
 * The subscriber's page's card form (docs/payments.md, "The subscriber's page"): the checkout's
 * card fields (islands/payments/provider.ts), the name on the card, what went wrong with the last
 * press, and one button. Paying what is due (islands/PayDue.tsx) and updating the card
 * (islands/UpdateCard.tsx) each put their own words and their own post behind it.
 */

/** A decline's advice in words, as the declined page gives it (screens/after/decline-advice.ts). */
export interface CardAdvice {
  lead: string;
  hints: string[];
}

/** Every word of the card form, translated on the server (islands load no translations). */
export interface CardEntryCopy extends CardPostCopy {
  cardTitle: string;
  fields: CardFieldLabels;
  namePlaceholder: string;
  loading: string;
  hintsLabel: string;
  /** Per decline class; `unknown` is SPEC.md §8's for any decline. */
  advice: Record<DeclineClass, CardAdvice>;
  gateway: TestGatewayCopy;
  messages: Record<string, string>;
}

type Form = 'loading' | 'ready' | 'unavailable';

/**
 * Mounts the provider's card fields into `box` once, the number focused once in when `focus`; the
 * provider, or null while it loads.
 */
function useCardFields(
  props: { settings: PaymentSettings; copy: CardEntryCopy; language: string; focus?: boolean },
  box: RefObject<HTMLDivElement | null>,
) {
  const [form, setForm] = useState<Form>('loading');
  const provider = useRef<CardProvider | null>(null);
  const { settings, copy, language, focus } = props;
  useEffect(() => {
    let gone = false;
    let loaded: CardProvider | null = null;
    const mounting = (async () => {
      const { chooseProvider, loadCardProvider } = await import('../payments/providers');
      const choice = chooseProvider(settings, { forceDirect: false });
      loaded = await loadCardProvider(choice, settings, copy.gateway);
      if (gone || !box.current) return null;
      await loaded.mount(box.current, { language, labels: copy.fields, messages: copy.messages });
      return loaded;
    })();
    // As at the checkout: a provider's script that never comes is said, not waited on forever.
    withinDeadline(mounting, CARD_FIELDS_DEADLINE_MS, () => loaded?.unmount())
      .then((mounted) => {
        if (gone || mounted === null) return;
        provider.current = mounted;
        setForm('ready');
        if (focus) mounted.focusNumber?.();
      })
      .catch(() => {
        if (!gone) setForm('unavailable');
      });
    return () => {
      gone = true;
      provider.current?.unmount();
    };
  }, [settings, copy, language, focus, box]);
  return { form, provider };
}

/** A press's problem the page shows: a decline, or a message already in words. */
export type CardProblem =
  | Extract<CardPostOutcome<{ status: 'done' }>, { status: 'declined' }>
  | { status: 'error'; message: string };

/** What went wrong with the last press: the decline's advice by class, or the error's text. */
function Problem({ copy, problem }: { copy: CardEntryCopy; problem: CardProblem | null }) {
  if (problem?.status === 'declined') {
    const advice = copy.advice[problem.decline_class] ?? copy.advice.unknown;
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
      {problem?.status === 'error' ? problem.message : ''}
    </p>
  );
}

/**
 * The card form with its button (`submit` its words). `send` posts the card; it answers the
 * problem to show, or null when the press succeeded or the page shows what came of it.
 * `beforeSubmit` goes just above the button: what a press takes and agrees to, where the
 * caller has such words. `focusNumber`: the visitor came to type their card (again), so the
 * number takes the focus once the fields are in.
 */
export function CardEntryForm(props: {
  settings: PaymentSettings;
  language: string;
  copy: CardEntryCopy;
  submit: string;
  send: (provider: CardProvider, cardholderName: string) => Promise<CardProblem | null>;
  beforeSubmit?: ReactNode;
  focusNumber?: boolean;
}) {
  const { copy } = props;
  const id = useId();
  const box = useRef<HTMLDivElement | null>(null);
  const { form, provider } = useCardFields({ ...props, focus: props.focusNumber }, box);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<CardProblem | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!provider.current || busy) return;
    setBusy(true);
    const found = await props.send(provider.current, name);
    setProblem(found);
    setBusy(false);
  };
  const notice =
    form === 'loading'
      ? copy.loading
      : form === 'unavailable'
        ? copy.problems.card_form_unavailable
        : null;
  return (
    <form onSubmit={onSubmit} noValidate>
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
      <Problem copy={copy} problem={problem} />
      {props.beforeSubmit}
      <button
        type="submit"
        className="button button--primary"
        disabled={form !== 'ready' || busy}
        aria-busy={busy}
      >
        {props.submit}
      </button>
    </form>
  );
}
