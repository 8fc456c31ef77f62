import type { SectionSpec } from '../kit/arrangement';
import type { SectionKind } from '../kit/composition';

/**
 * An upsell's way out. A form like Continue's, so it moves on the same way (history entry
 * replaced, SPEC.md §2) and works without JavaScript.
 */
function SkipForm({ action, next, label }: { action: string; next: string | null; label: string }) {
  return (
    <form method="post" action={action} data-next={next ?? undefined} className="skip-form">
      <button type="submit" className="skip-form__button">
        {label}
      </button>
    </form>
  );
}

/** An upsell's Skip section: its way out, labelled with the copy key `label`. */
export function skipSection(spec: SectionSpec, label: string): SectionKind {
  return {
    ...spec,
    render: ({ t, continueAction, next }) => (
      <SkipForm action={continueAction} next={next} label={t(label)} />
    ),
  };
}
