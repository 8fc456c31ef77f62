import { type ReactNode, useState } from 'react';
import type { Change } from '../../shared/console-api/versions';
import { ChangeList } from './ChangeList';
import { changeItems } from './change-text';
import { FailureNotice } from './FailureNotice';
import type { Loaded } from './stores/loaded';
import { timeText } from './time-text';

/** What every kind of version (the config's, the copy's) says of itself. */
interface VersionFacts {
  seq: number;
  id: string;
  at: string;
  author: string;
  restores?: number;
  /** Published without a second person's approval where one was required: the reason. */
  breakGlass?: string;
  note: string;
  diff: Change[];
}

/**
 * One version in an audit log: who, when, from which source, what it restores, why, and what it
 * changed, then its roll back unless it is live. `name` is how the version is called in running
 * text ("c3", "copy c3"), `title` in its heading.
 */
export function VersionCard(props: {
  version: VersionFacts;
  titleId: string;
  Heading: 'h3' | 'h4';
  title: string;
  name: string;
  isLive: boolean;
  source: string;
  idOf: (seq: number) => string;
  /** Facts of this kind of version, between what it restores and its note. */
  facts?: ReactNode;
  rollback: ReactNode;
}) {
  const { version, titleId, Heading, idOf } = props;
  return (
    <article className="card" aria-labelledby={titleId}>
      <Heading className="card__title" id={titleId}>
        {props.title} {props.isLive ? <span className="badge">live</span> : null}
      </Heading>
      <p className="muted">
        <time dateTime={version.at}>{timeText(version.at)}</time> by {version.author}
      </p>
      <dl className="facts">
        <div>
          <dt>Source</dt>
          <dd>{props.source}</dd>
        </div>
        {version.restores !== undefined ? (
          <div>
            <dt>Restores</dt>
            <dd>{idOf(version.restores)}</dd>
          </div>
        ) : null}
        {props.facts}
        {version.breakGlass !== undefined ? (
          <div>
            <dt>Broke the glass</dt>
            <dd>
              published without a second person's approval, the team alerted: {version.breakGlass}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Note</dt>
          <dd>{version.note || '(none)'}</dd>
        </div>
      </dl>
      <details className="details">
        <summary>
          Changes ({changeItems(version.diff).length})
          <span className="visually-hidden"> in {props.name}</span>
        </summary>
        <ChangeList changes={version.diff} label={`Changes in ${props.name}`} />
      </details>
      {props.isLive ? null : props.rollback}
    </article>
  );
}

/** A list of versions as its store holds it: loading, refused, or ready, newest first. */
type VersionsList<V> = Loaded<{ versions: V[] }>;

/** The id a version's seq stands for in `history`, else `fallback` and the seq ("version 3"). */
export function versionIdOf(history: VersionsList<VersionFacts>, fallback: string) {
  return (seq: number) =>
    (history.kind === 'ready' ? history.versions.find((v) => v.seq === seq)?.id : null) ??
    `${fallback} ${seq}`;
}

/** How many versions a history lists at first, and more at each "Show older": a few screens. */
export const VERSIONS_SHOWN = 10;

/**
 * The versions of a history, newest first, each drawn by `entry`; what the store refused; or
 * `empty`. The newest VERSIONS_SHOWN at first and more on request, so the page stays a few
 * screens long however long the history (a version's own page, and the search, reach any).
 */
export function VersionList<V extends VersionFacts>(props: {
  history: VersionsList<V>;
  empty: string;
  /** How the list is called in its "Show older" button ("config versions"). */
  kind: string;
  entry(version: V): ReactNode;
}) {
  const { history } = props;
  const [shown, setShown] = useState(VERSIONS_SHOWN);
  const versions = history.kind === 'ready' ? history.versions : [];
  const older = versions.length - shown;
  return (
    <>
      {history.kind === 'failed' ? <FailureNotice message={history.message} /> : null}
      {history.kind === 'ready' && versions.length === 0 ? <p>{props.empty}</p> : null}
      {versions.length > 0 ? (
        <ol className="versions">
          {versions.slice(0, shown).map((version) => (
            <li key={version.seq}>{props.entry(version)}</li>
          ))}
        </ol>
      ) : null}
      {older > 0 ? (
        <p>
          <button
            type="button"
            className="button button--quiet"
            onClick={() => setShown(shown + VERSIONS_SHOWN)}
          >
            Show {Math.min(older, VERSIONS_SHOWN)} older {props.kind} ({older} in all)
          </button>
        </p>
      ) : null}
    </>
  );
}
