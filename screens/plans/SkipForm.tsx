/**
 * An upsell's way out. A form like Continue's, so it moves on the same way (history entry
 * replaced, SPEC.md §2) and works without JavaScript.
 */
export function SkipForm({
  action,
  next,
  label,
}: {
  action: string;
  next: string | null;
  label: string;
}) {
  return (
    <form method="post" action={action} data-next={next ?? undefined} className="skip-form">
      <button type="submit" className="skip-form__button">
        {label}
      </button>
    </form>
  );
}
