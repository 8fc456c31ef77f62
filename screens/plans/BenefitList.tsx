/** A short list of what a plan or an add-on gives, each line with a check mark. */
export function BenefitList({ label, items }: { label: string; items: readonly string[] }) {
  return (
    <ul className="plan-benefits" aria-label={label}>
      {items.map((item) => (
        <li key={item} className="plan-benefits__item">
          {item}
        </li>
      ))}
    </ul>
  );
}
