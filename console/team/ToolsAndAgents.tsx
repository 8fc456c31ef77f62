import { type FormEvent, useId, useState } from 'react';
import type { ChangeSet } from '../../shared/console-api/draft';
import {
  type ConsoleToken,
  TOKEN_NAME,
  TOKEN_SCOPES,
  type TokenScope,
} from '../../shared/console-api/tokens';
import { FailureNotice } from '../kit/FailureNotice';
import { useStore } from '../kit/stores/atom';
import { timeText } from '../kit/time-text';
import {
  $tools,
  $toolsOutcome,
  loadTools,
  makeToken,
  revokeToken,
  takeIntoDraft,
} from './stores/tools';

/** What each scope lets a token do, as the form offers it. */
const SCOPE_TEXTS: Record<TokenScope, string> = {
  read: 'Read: the live config, results, history; review an edit; test a visitor',
  content: 'Content: draft screens’ sections and copy, and preview them',
  traffic: 'Traffic and money: draft the split, flows, routes and experiments; import ad costs',
};

/**
 * Tools and agents (docs/agents.md): the change sets people's tools and AI agents prepared with a
 * console token, each taken into the team's draft by a person to review and publish as any
 * edit; and the tokens, made and revoked here. No token publishes or approves.
 */
export function ToolsAndAgents() {
  const tools = useStore($tools);
  return (
    <section className="section" id="tools" aria-labelledby="tools-title">
      <h2 id="tools-title">Tools and agents</h2>
      <p className="muted">
        A tool or an AI agent works the console with a token: it reads, reviews and drafts a change
        set of its own, and asks for approval. A person takes the change set into the team's draft,
        where it is reviewed and published as any edit.
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => void loadTools()}>
          Refresh tools and agents
        </button>
      </div>
      <Outcome />
      {tools.kind === 'loading' ? (
        <p className="muted" role="status">
          Loading the tokens…
        </p>
      ) : null}
      {tools.kind === 'failed' ? <FailureNotice message={tools.message} /> : null}
      {tools.kind === 'ready' ? (
        <>
          <ChangeSets changeSets={tools.changeSets} />
          <Tokens tokens={tools.tokens} />
        </>
      ) : null}
      <MakeToken />
    </section>
  );
}

function Outcome() {
  const outcome = useStore($toolsOutcome);
  if (outcome === null) return null;
  if (outcome.kind === 'failed') return <FailureNotice message={outcome.text} />;
  if (outcome.kind === 'taken') {
    return (
      <p className="notice" role="status">
        {outcome.owner}'s change set is now the team's draft: review it under Edit and publish.
      </p>
    );
  }
  return (
    <div className="notice" role="status">
      <label htmlFor="new-token-secret">
        Token {outcome.name}: copy it now, it is not shown again
      </label>
      <input
        id="new-token-secret"
        className="input"
        readOnly
        value={outcome.secret}
        onFocus={(event) => event.target.select()}
      />
    </div>
  );
}

function ChangeSets({ changeSets }: { changeSets: ChangeSet[] }) {
  if (changeSets.length === 0) {
    return <p className="muted">No tool has prepared a change set.</p>;
  }
  return (
    <ul className="list" aria-label="Change sets tools prepared">
      {changeSets.map(({ owner, draft }) => (
        <li key={owner} className="block">
          <p>
            <strong>{owner}</strong>, revision {draft.revision}, saved{' '}
            <time dateTime={draft.at}>{timeText(draft.at)}</time>
            {draft.review ? `; asks for approval: “${draft.review.note || 'no note'}”` : ''}
          </p>
          <button type="button" className="button" onClick={() => void takeIntoDraft(owner)}>
            Take {owner}'s change set into the team draft
          </button>
        </li>
      ))}
    </ul>
  );
}

function Tokens({ tokens }: { tokens: ConsoleToken[] }) {
  if (tokens.length === 0) return <p className="muted">No token yet.</p>;
  return (
    <ul className="list" aria-label="Console tokens">
      {tokens.map((token) => (
        <li key={token.name}>
          <strong>{token.name}</strong> ({token.scopes.join(', ')}), made by {token.createdBy}{' '}
          <time dateTime={token.createdAt}>{timeText(token.createdAt)}</time>
          {token.revokedAt ? (
            `; revoked by ${token.revokedBy}, ${timeText(token.revokedAt)}`
          ) : (
            // A gap from the date, as between words.
            <button
              style={{ marginInlineStart: '0.75em' }}
              type="button"
              className="button button--quiet"
              onClick={() => void revokeToken(token.name)}
            >
              Revoke {token.name}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function MakeToken() {
  const ids = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['read']);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!TOKEN_NAME.test(name)) {
      setProblem('A name of lower-case letters, digits and dashes, e.g. copy-agent.');
      return;
    }
    if (scopes.length === 0) {
      setProblem('Choose at least one scope.');
      return;
    }
    setProblem(null);
    void makeToken(name, scopes);
  };
  const toggle = (scope: TokenScope) =>
    setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));
  return (
    <form className="block" aria-labelledby={`${ids}-title`} onSubmit={submit} noValidate>
      <h3 id={`${ids}-title`}>Make a token</h3>
      <div className="field">
        <label htmlFor={`${ids}-name`}>Name</label>
        <input
          id={`${ids}-name`}
          className="input"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <fieldset className="row__fields">
        <legend>Scopes</legend>
        {TOKEN_SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={() => toggle(scope)}
            />{' '}
            {SCOPE_TEXTS[scope]}
          </label>
        ))}
      </fieldset>
      {problem === null ? null : <FailureNotice message={problem} />}
      <div className="actions">
        <button type="submit" className="button">
          Make the token
        </button>
      </div>
    </form>
  );
}
