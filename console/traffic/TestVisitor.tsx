import { type FormEvent, memo, useId, useState } from 'react';
import type { RoutingDocument } from '../../shared/config/routing';
import { PLATFORMS, ROUTE_LANGUAGES } from '../../shared/routing';
import { ErrorSummary } from '../edit/ErrorSummary';
import { planListParts } from '../plan-text';
import { valueChoices } from '../route-choices';
import { utcInstantOf } from '../routing-edits';
import { useStore } from '../stores/atom';
import { $routeTest, $routeTestStatus, testVisitor } from '../stores/traffic';

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
const COUNTRY_OPTIONS = valueChoices('country').map((choice) => (
  <option key={String(choice.value)} value={String(choice.value)}>
    {choice.label}
  </option>
));

function Answer() {
  const test = useStore($routeTest);
  switch (test.kind) {
    case 'idle':
      return null;
    case 'testing':
      return <p className="muted">Testing…</p>;
    case 'invalid':
      return (
        <ErrorSummary
          errors={test.errors}
          intro="The draft’s routing was refused, so it cannot be tested."
        />
      );
    case 'failed':
      return (
        <p className="notice notice--error" role="alert">
          {test.message}
        </p>
      );
    case 'answered': {
      const { answer, against } = test;
      return (
        <div className="review-result route-test__answer">
          <p>
            Against {against === 'draft' ? 'your draft' : 'the live config'}, this visitor gets
            route <strong className="route-test__route">{answer.route}</strong>: flow{' '}
            <strong>{answer.flow}</strong>
            {planListParts(answer)
              .map((part) => `, ${part}`)
              .join('')}
            .
          </p>
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
          ) : (
            <p className="muted">Previews are not set up on this deployment.</p>
          )}
        </div>
      );
    }
  }
}

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
  const [country, setCountry] = useState('DE');
  const [platform, setPlatform] = useState<string>('ios');
  const [app, setApp] = useState<string>('none');
  const [language, setLanguage] = useState<string>('en');
  const [clickId, setClickId] = useState<string>('');
  const [returning, setReturning] = useState(false);
  const [against, setAgainst] = useState<'draft' | 'live'>('draft');
  const [at, setAt] = useState('');
  const [problem, setProblem] = useState('');
  const edited = JSON.stringify(draft) !== JSON.stringify(live);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^https?:\/\/\S+$/.test(link.trim())) {
      setProblem('Paste the whole ad link, starting with https://');
      event.currentTarget.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    setProblem('');
    void testVisitor({
      link: link.trim(),
      country: country === '' ? null : country,
      platform,
      app,
      language,
      ...(clickId === '' ? {} : { clickId }),
      returning,
      ...(against === 'draft' ? { routing: draft } : {}),
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
        {problem ? (
          <p className="field-problem" id={`${id}-problem`}>
            {problem}
          </p>
        ) : null}
      </div>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-country`}>Visitor’s country</label>
          <select
            id={`${id}-country`}
            value={country}
            onChange={(event) => setCountry(event.target.value)}
          >
            <option value="">Unknown</option>
            {COUNTRY_OPTIONS}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-platform`}>Platform</label>
          <select
            id={`${id}-platform`}
            value={platform}
            onChange={(event) => setPlatform(event.target.value)}
          >
            {PLATFORMS.map((each) => (
              <option key={each} value={each}>
                {PLATFORM_LABELS[each]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-app`}>Opened in the app</label>
          <select id={`${id}-app`} value={app} onChange={(event) => setApp(event.target.value)}>
            {valueChoices('in_app').map((choice) => (
              <option key={String(choice.value)} value={String(choice.value)}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-language`}>Page language</label>
          <select
            id={`${id}-language`}
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
          >
            {ROUTE_LANGUAGES.map((each, index) => (
              <option key={each} value={each}>
                {valueChoices('language')[index]?.label ?? each}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-click`}>Ad click id</label>
          <select
            id={`${id}-click`}
            value={clickId}
            onChange={(event) => setClickId(event.target.value)}
          >
            <option value="">As in the link</option>
            {valueChoices('click_id').map((choice) => (
              <option key={String(choice.value)} value={String(choice.value)}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-visitor`}>New or returning</label>
          <select
            id={`${id}-visitor`}
            value={returning ? 'returning' : 'new'}
            onChange={(event) => setReturning(event.target.value === 'returning')}
          >
            <option value="new">New visitor</option>
            <option value="returning">Returning visitor</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-against`}>Test against</label>
          <select
            id={`${id}-against`}
            value={against}
            onChange={(event) => setAgainst(event.target.value as 'draft' | 'live')}
          >
            <option value="draft">Your draft{edited ? ' (with unpublished edits)' : ''}</option>
            <option value="live">What is live</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-at`}>Test at (UTC; empty: now)</label>
          <input
            id={`${id}-at`}
            className="input"
            type="datetime-local"
            value={at}
            onChange={(event) => setAt(event.target.value)}
          />
        </div>
      </div>
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
