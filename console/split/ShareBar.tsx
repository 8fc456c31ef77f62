import { formatShare } from './shares';

/** A variant's share of new visitors as text (what is read out) and as a bar (what is seen). */
export function ShareBar({
  share,
  weight,
  total,
}: {
  share: number;
  weight: number;
  total: number;
}) {
  const text = formatShare(share);
  return (
    <div className="share">
      <p className="share__text">
        <strong>{text}</strong> of new visitors{' '}
        <span className="muted">
          (weight {weight} of {total})
        </span>
      </p>
      <span className="share__bar" aria-hidden="true">
        <span className="share__fill" style={{ width: `${Math.round(share * 1000) / 10}%` }} />
      </span>
    </div>
  );
}
