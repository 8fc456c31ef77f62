/**
 * Up, Down and Remove for one item of an ordered list. The ends are aria-disabled rather than
 * disabled, so focus never falls off a button that became an end.
 */
export function MoveButtons(props: {
  as: 'p' | 'span';
  ids: { up: string; down: string; remove?: string };
  /** What each button is called for a screen reader: "Move route x up", "Remove route x". */
  labels: { up: string; down: string; remove: string };
  first: boolean;
  last: boolean;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  const { as: Wrapper, ids, labels } = props;
  return (
    <Wrapper className="actions">
      <button
        type="button"
        className="button button--small"
        id={ids.up}
        aria-label={labels.up}
        aria-disabled={props.first || undefined}
        onClick={() => props.onMove(-1)}
      >
        Up
      </button>
      <button
        type="button"
        className="button button--small"
        id={ids.down}
        aria-label={labels.down}
        aria-disabled={props.last || undefined}
        onClick={() => props.onMove(1)}
      >
        Down
      </button>
      <button
        type="button"
        className="button button--small"
        id={ids.remove}
        aria-label={labels.remove}
        onClick={props.onRemove}
      >
        Remove
      </button>
    </Wrapper>
  );
}
