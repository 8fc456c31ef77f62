/** A flow drawn as the row of screens it walks, in order, with arrows between them. */
export function FlowRow({ screens, label }: { screens: readonly string[]; label: string }) {
  return (
    <ol className="flow-row" aria-label={label}>
      {screens.map((screen, index) => (
        <li key={screen} className="flow-row__step">
          {index > 0 ? (
            <span className="flow-row__arrow" aria-hidden="true">
              →
            </span>
          ) : null}
          <span className="chip">{screen}</span>
        </li>
      ))}
    </ol>
  );
}
