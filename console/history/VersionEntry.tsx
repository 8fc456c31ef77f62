import type { Change, VersionSource, VersionSummary } from '../../shared/console-api/versions';
import { VersionCard } from '../kit/VersionCard';
import { RollbackControl } from './RollbackControl';

const SOURCE_TEXTS: Record<VersionSource, string> = {
  console: 'the console',
  cli: 'the CLI',
  rollback: 'a roll back',
  seed: 'the first config (seed)',
  ramp: 'a guarded ramp',
};

/**
 * One config version in the audit log: its card, with the version it was published on, its phase,
 * who edited the draft it published, who asked for the review and who approved it (a version
 * published after a review; none on the others), or why it broke the glass.
 */
export function VersionEntry(props: {
  version: VersionSummary & { diff: Change[] };
  isLive: boolean;
  idOf: (seq: number) => string;
}) {
  const { version, idOf } = props;
  return (
    <VersionCard
      version={version}
      titleId={`version-title:${version.seq}`}
      Heading="h3"
      title={version.id}
      name={version.id}
      isLive={props.isLive}
      source={SOURCE_TEXTS[version.source] ?? version.source}
      idOf={idOf}
      facts={
        <>
          <div>
            <dt>Published on top of</dt>
            <dd>{version.base === null ? 'nothing (the first version)' : idOf(version.base)}</dd>
          </div>
          <div>
            <dt>Phase</dt>
            <dd>{version.phase}</dd>
          </div>
          {version.editors === undefined ? null : (
            <div>
              <dt>Edited by</dt>
              <dd>{version.editors.join(', ')}</dd>
            </div>
          )}
          {version.requester === undefined ? null : (
            <div>
              <dt>Review asked by</dt>
              <dd>{version.requester}</dd>
            </div>
          )}
          {version.approver === undefined ? null : (
            <div>
              <dt>Approved by</dt>
              <dd>{version.approver}</dd>
            </div>
          )}
        </>
      }
      rollback={<RollbackControl seq={version.seq} versionId={version.id} />}
    />
  );
}
