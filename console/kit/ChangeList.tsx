import type { Change } from '../../shared/console-api/versions';
import { changeItems } from './change-text';
import type { ChangeItem, CopyRow } from './content-change-text';

/** A text's side of a copy change: the text, or what visitors read without it. */
function TextCell({ text }: { text: string | undefined }) {
  return <td>{text === undefined ? <span className="muted">the text in code</span> : text}</td>;
}

/** A text that changed, each language that changed in a row: before beside after. */
function CopyChange({ item }: { item: Extract<ChangeItem, { kind: 'copy' }> }) {
  return (
    <>
      <span>{item.title}</span> <code className="muted change-path">{item.key}</code>
      <table className="change-texts">
        <caption className="visually-hidden">{item.title}, before and after, by language</caption>
        <thead>
          <tr>
            <th scope="col" className="change-language">
              Language
            </th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {item.rows.map((row: CopyRow, index) => (
            <tr key={item.paths[index] ?? row.language}>
              <th scope="row" className="change-language">
                {row.language}
              </th>
              <TextCell text={row.before} />
              <TextCell text={row.after} />
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * Differences between two documents, one sentence each, with the document's path as small
 * detail; a text that changed shows each language that changed side by side.
 */
export function ChangeList({ changes, label }: { changes: readonly Change[]; label: string }) {
  if (changes.length === 0) return <p className="muted">No differences.</p>;
  return (
    <ul className="changes" aria-label={label}>
      {changeItems(changes).map((item) => (
        <li key={item.paths.join(' ')}>
          {item.kind === 'copy' ? (
            <CopyChange item={item} />
          ) : (
            <>
              <span>{item.text}</span>{' '}
              <code className="muted change-path">{item.paths.join(', ')}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
