import { type FormEvent, memo, type ReactNode, useId, useState } from 'react';
import type { RoutingDocument } from '../../shared/config/routing';
import { PLATFORMS, ROUTE_LANGUAGES } from '../../shared/routing';
import { ErrorSummary } from '../kit/ErrorSummary';
import { FailureNotice } from '../kit/FailureNotice';
import { FieldProblem } from '../kit/field-problem';
import { planListParts } from '../kit/plan-text';
import { valueChoices } from '../kit/route-choices';
import { utcInstantOf } from '../kit/routing-edits';
import { SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { $routeTest, $routeTestStatus, testVisitor } from '../kit/stores/traffic';
import { ServedArms, screenText } from '../kit/visitor-gets';
import { DrawnLanding } from './DrawnLanding';

const PLATFORM_LABELS: Record<string, string> = {
  ios: 'iPhone (iOS)',
  android: 'Android',
  desktop: 'Desktop',
  other: 'Other',
};

/**
 * The same elements on every render: React then skips the 250 options when the draft changes,
 * which re-renders this form on each edit anywhere in the console.
 */
const COUNTRY_OPTIONS = choiceOptions('country');

function Answer() {
  const test = useStore($routeTest);
  switch (test.kind) {
    case 'idle':
      return null;
    case 'testing':
      return <p className="muted">Testing…</p>;
    case 'invalid':
      return (
        <ErrorSummary errors={test.errors} intro="The draft was refused, so it cannot be tested." />
      );
    case 'failed':
      return <FailureNotice message={test.message} />;
    case 'answered': {
      const { answer, against, drawing } = test;
      return (
        <div className="review-result route-test__answer">
          <p>
            Against {against === 'draft' ? 'your draft' : 'the live config'}, this visitor gets
            route <strong className="route-test__route">{answer.route}</strong>: flow{' '}
            <strong>{answer.gets.flow}</strong>, opens with the landing{' '}
            <strong>{screenText(answer.gets.landing)}</strong>
            {planListParts(answer.gets)
              .map((part) => `, ${part}`)
              .join('')}
            .
          </p>
          <ServedArms answer={answer.gets} label="The visitor’s experiments" />
          <p className="muted">The link reads as: {answer.source}</p>
          {answer.passed.length > 0 ? (
            <>
              <p>Routes before it:</p>
              <ul className="changes" aria-label="Why each earlier route did not take the visitor">
                {answer.passed.map((passed) => (
                  <li key={passed.id}>
                    <strong>{passed.id}</strong>: {passed.why}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {answer.preview ? (
            <a className="card__preview" href={answer.preview} target="_blank" rel="noopener">
              Preview route {answer.route}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : answer.previewTooLarge ? (
            <p className="muted">
              No preview link: route {answer.route} carries more than a browser keeps in the preview
              cookie (4 KB), its currency table above all, so a preview would show the live funnel.
              List fewer countries in its currencies to preview it.
            </p>
          ) : (
            <p className="muted">Previews are not set up on this deployment.</p>
          )}
          {drawing && answer.gets.landing?.screen ? (
            <DrawnLanding answer={answer} {...drawing} />
          ) : null}
        </div>
      );
    }
  }
}

/** What the form says of the visitor, as typed and chosen. */
interface Visitor {
  country: string;
  platform: string;
  app: string;
  language: string;
  clickId: string;
  returning: boolean;
  against: 'draft' | 'live';
  at: string;
}

const FIRST_VISITOR: Visitor = {
  country: 'DE',
  platform: 'ios',
  app: 'none',
  language: 'en',
  clickId: '',
  returning: false,
  against: 'draft',
  at: '',
};

/** An ad link and what the edge would know of the visitor: which route would take them, and why. */
export const TestVisitor = memo(function TestVisitor({
  draft,
  live,
}: {
  /** The draft's routing and what is live: only a routing edit re-renders the form. */
  draft: RoutingDocument;
  live: RoutingDocument;
}) {
  const id = useId();
  const status = useStore($routeTestStatus);
  const [link, setLink] = useState('');
  const [visitor, setVisitor] = useState(FIRST_VISITOR);
  const [problem, setProblem] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^https?:\/\/\S+$/.test(link.trim())) {
      setProblem('Paste the whole ad link, starting with https://');
      event.currentTarget.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    setProblem('');
    const { country, clickId, against, at, ...rest } = visitor;
    const draftDocument = $draft.get()?.document;
    void testVisitor({
      link: link.trim(),
      country: country === '' ? null : country,
      platform: rest.platform,
      app: rest.app,
      language: rest.language,
      ...(clickId === '' ? {} : { clickId }),
      returning: rest.returning,
      // The whole draft, read when asked: the form re-renders on routing edits only (above).
      ...(against === 'draft' && draftDocument ? { document: draftDocument } : {}),
      ...(utcInstantOf(at) ? { at: utcInstantOf(at) } : {}),
    });
  }

  return (
    <form className="block" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Test a visitor</h3>
      <p className="muted">
        Paste an ad link and say where the visitor is: the worker runs its own routing on it.
      </p>
      <div className="field">
        <label htmlFor={`${id}-link`}>Ad link</label>
        <input
          id={`${id}-link`}
          className="input route-test__link"
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://…/?utm_source=tiktok&ttclid=…"
          value={link}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setLink(event.target.value)}
        />
        <FieldProblem id={`${id}-problem`} problem={problem} />
      </div>
      <VisitorFields
        id={id}
        visitor={visitor}
        edited={JSON.stringify(draft) !== JSON.stringify(live)}
        onChange={(fields) => setVisitor((was) => ({ ...was, ...fields }))}
      />
      <button type="submit" className="button button--primary">
        Test visitor
      </button>
      <p className="status" role="status">
        {status}
      </p>
      <Answer />
    </form>
  );
});

/** The visitor's selects, each as the field it sets, its id suffix, label and options. */
const VISITOR_SELECTS: readonly [keyof Visitor, string, string, ReactNode][] = [
  [
    'country',
    'country',
    'Visitor’s country',
    <>
      <option value="">Unknown</option>
      {COUNTRY_OPTIONS}
    </>,
  ],
  [
    'platform',
    'platform',
    'Platform',
    PLATFORMS.map((each) => (
      <option key={each} value={each}>
        {PLATFORM_LABELS[each]}
      </option>
    )),
  ],
  ['app', 'app', 'Opened in the app', choiceOptions('in_app')],
  [
    'language',
    'language',
    'Page language',
    ROUTE_LANGUAGES.map((each, index) => (
      <option key={each} value={each}>
        {valueChoices('language')[index]?.label ?? each}
      </option>
    )),
  ],
  [
    'clickId',
    'click',
    'Ad click id',
    <>
      <option value="">As in the link</option>
      {choiceOptions('click_id')}
    </>,
  ],
];

/** Where the visitor is, on what, in which language, and which routing to test against. */
function VisitorFields(props: {
  id: string;
  visitor: Visitor;
  edited: boolean;
  onChange(fields: Partial<Visitor>): void;
}) {
  const { id, visitor, onChange } = props;
  return (
    <div className="row__fields">
      {VISITOR_SELECTS.map(([field, suffix, label, options]) => (
        <SelectField
          key={field}
          id={`${id}-${suffix}`}
          label={label}
          value={visitor[field] as string}
          onChange={(value) => onChange({ [field]: value })}
        >
          {options}
        </SelectField>
      ))}
      <VisitorWhen {...props} />
    </div>
  );
}

/** New or returning, the draft or what is live, and when. */
function VisitorWhen({ id, visitor, edited, onChange }: Parameters<typeof VisitorFields>[0]) {
  return (
    <>
      <SelectField
        id={`${id}-visitor`}
        label="New or returning"
        value={visitor.returning ? 'returning' : 'new'}
        onChange={(value) => onChange({ returning: value === 'returning' })}
      >
        <option value="new">New visitor</option>
        <option value="returning">Returning visitor</option>
      </SelectField>
      <SelectField
        id={`${id}-against`}
        label="Test against"
        value={visitor.against}
        onChange={(against) => onChange({ against: against as Visitor['against'] })}
      >
        <option value="draft">Your draft{edited ? ' (with unpublished edits)' : ''}</option>
        <option value="live">What is live</option>
      </SelectField>
      <div className="field">
        <label htmlFor={`${id}-at`}>Test at (UTC; empty: now)</label>
        <input
          id={`${id}-at`}
          className="input"
          type="datetime-local"
          value={visitor.at}
          onChange={(event) => onChange({ at: event.target.value })}
        />
      </div>
    </>
  );
}

/** A value list's choices as options. */
function choiceOptions(kind: Parameters<typeof valueChoices>[0]) {
  return valueChoices(kind).map((choice) => (
    <option key={String(choice.value)} value={String(choice.value)}>
      {choice.label}
    </option>
  ));
}
