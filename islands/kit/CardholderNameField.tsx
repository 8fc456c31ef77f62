/**
 * The card form's optional "Name on card" (SPEC.md §2 card form): a labelled text field with the
 * browser's cc-name autofill. The checkout's (islands/CheckoutPayment.tsx) and the recovery
 * page's (islands/PayDue.tsx).
 */
export function CardholderNameField({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="card-form__field" htmlFor={id}>
      <span className="card-form__label">{label}</span>
      <input
        id={id}
        className="card-form__input"
        type="text"
        autoComplete="cc-name"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
