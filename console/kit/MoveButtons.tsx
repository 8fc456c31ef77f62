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
  const buttons = [
    { text: 'Up', id: ids.up, label: labels.up, atEnd: props.first, act: () => props.onMove(-1) },
    {
      text: 'Down',
      id: ids.down,
      label: labels.down,
      atEnd: props.last,
      act: () => props.onMove(1),
    },
    { text: 'Remove', id: ids.remove, label: labels.remove, atEnd: false, act: props.onRemove },
  ];
  return (
    <Wrapper className="actions">
      {buttons.map((button) => (
        <button
          key={button.text}
          type="button"
          className="button button--small"
          id={button.id}
          aria-label={button.label}
          aria-disabled={button.atEnd || undefined}
          onClick={button.act}
        >
          {button.text}
        </button>
      ))}
    </Wrapper>
  );
}
