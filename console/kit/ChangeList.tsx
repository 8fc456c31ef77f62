import type { Change } from '../../shared/console-api/versions';
import { changeText } from './change-text';

/** Differences between two documents, one line each. */
export function ChangeList({ changes, label }: { changes: readonly Change[]; label: string }) {
  if (changes.length === 0) return <p className="muted">No differences.</p>;
  return (
    <ul className="changes" aria-label={label}>
      {changes.map((change) => (
        <li key={`${change.kind}:${change.path}`}>
          <code>{changeText(change)}</code>
        </li>
      ))}
    </ul>
  );
}
