/**
 * A range on a number answer, from and to (both included), as a branch and a result line ask it:
 * `name from` and `name to`, each a number field; an emptied field reads 0 until typed again.
 */
export function RangeEnds(props: {
  id: string;
  name: string;
  min: number;
  max: number;
  onChange: (ends: { min: number; max: number }) => void;
}) {
  const { id, name, min, max, onChange } = props;
  const typed = (value: string) => (value === '' ? 0 : Number(value));
  return (
    <>
      {(['min', 'max'] as const).map((end) => (
        <div className="field" key={end}>
          <label htmlFor={`${id}-${end}`}>
            {name} {end === 'min' ? 'from' : 'to'}
          </label>
          <input
            id={`${id}-${end}`}
            className="input"
            type="number"
            value={end === 'min' ? min : max}
            onChange={(event) => onChange({ min, max, [end]: typed(event.target.value) })}
          />
        </div>
      ))}
    </>
  );
}
