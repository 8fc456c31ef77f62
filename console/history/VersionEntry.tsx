import type { Change, VersionSource, VersionSummary } from '../../shared/console-api/versions';
import { ChangeList } from '../ChangeList';
import { timeText } from '../time-text';
import { RollbackControl } from './RollbackControl';

const SOURCE_TEXTS: Record<VersionSource, string> = {
  console: 'the console',
  cli: 'the CLI',
  rollback: 'a roll back',
  seed: 'the first config (seed)',
};

/** One version in the audit log: who, when, from which version, why, and what it changed. */
export function VersionEntry(props: {
  version: VersionSummary & { diff: Change[] };
  isLive: boolean;
  idOf: (seq: number) => string;
}) {
  const { version, isLive, idOf } = props;
  const titleId = `version-title:${version.seq}`;
  return (
    <article className="card" aria-labelledby={titleId}>
      <h3 className="card__title" id={titleId}>
        {version.id} {isLive ? <span className="badge">live</span> : null}
      </h3>
      <p className="muted">
        <time dateTime={version.at}>{timeText(version.at)}</time> by {version.author}
      </p>
      <dl className="facts">
        <div>
          <dt>Source</dt>
          <dd>{SOURCE_TEXTS[version.source] ?? version.source}</dd>
        </div>
        {version.restores !== undefined ? (
          <div>
            <dt>Restores</dt>
            <dd>{idOf(version.restores)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Published on top of</dt>
          <dd>{version.base === null ? 'nothing (the first version)' : idOf(version.base)}</dd>
        </div>
        <div>
          <dt>Phase</dt>
          <dd>{version.phase}</dd>
        </div>
        <div>
          <dt>Note</dt>
          <dd>{version.note || '(none)'}</dd>
        </div>
      </dl>
      <details className="details">
        <summary>
          Changes ({version.diff.length})<span className="visually-hidden"> in {version.id}</span>
        </summary>
        <ChangeList changes={version.diff} label={`Changes in ${version.id}`} />
      </details>
      {isLive ? null : <RollbackControl seq={version.seq} versionId={version.id} />}
    </article>
  );
}
