import { useEffect, useState } from 'react';
import { FieldMessages, useFieldErrors } from './FieldMessages';
import { FieldProblem } from './field-problem';
import { setWeight } from './stores/draft';

/** What a number field's text stands for: NaN for text that is no number (the worker refuses it). */
export function typedNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/**
 * A variant's weight. The draft holds what is typed, even when it is no valid weight, so the
 * review checks what the marketer sees; the field says at once when it is no number at all.
 */
export function WeightInput({ variantKey: key, weight }: { variantKey: string; weight: number }) {
  const id = `weight:${key}`;
  const path = `split.variants.${key}.weight`;
  const own = useFieldErrors(path);
  const total = useFieldErrors('split.variants');
  const [text, setText] = useState(String(weight));
  // A weight changed elsewhere (pause, resume, discard) shows in the field.
  useEffect(() => {
    setText((typed) => (Object.is(typedNumber(typed), weight) ? typed : String(weight)));
  }, [weight]);
  const typed = typedNumber(text);
  // Only what is no number at all is said here; the worker's validator says the rest (negative).
  const problem = Number.isFinite(typed) ? null : 'Enter a number (0 pauses the variant).';
  const problemId = `${id}:problem`;
  const describedBy = [own.describedBy, total.describedBy, problem ? problemId : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <label htmlFor={id}>
        Weight<span className="visually-hidden"> of {key}</span>
      </label>
      <input
        id={id}
        className="input input--number"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        value={text}
        aria-invalid={own.invalid || problem !== null || undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => {
          setText(event.target.value);
          setWeight(key, typedNumber(event.target.value));
        }}
      />
      <FieldProblem id={problemId} problem={problem} />
      <FieldMessages path={path} />
    </>
  );
}
