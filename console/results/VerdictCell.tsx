import type { ResultVerdict } from '../../shared/console-api/results';
import { verdictWord } from '../kit/result-texts';

/** A comparison's verdict as a table cell: its word in its colour, or a dash while it has none. */
export function VerdictCell({ verdict }: { verdict: ResultVerdict | null }) {
  return (
    <td>
      {verdict ? (
        <span className={`verdict verdict--${verdict}`}>{verdictWord(verdict)}</span>
      ) : (
        '—'
      )}
    </td>
  );
}
