/**
 * SPEC.md §2: a numbered step list. The numbers come from the ordered list itself (CSS
 * counters), so assistive technology reads them as list positions.
 */
export function StepList({ steps, label }: { steps: readonly string[]; label?: string }) {
  return (
    <ol className="step-list" aria-label={label}>
      {steps.map((step) => (
        <li key={step} className="step-list__item">
          {step}
        </li>
      ))}
    </ol>
  );
}
