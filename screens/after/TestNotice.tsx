import type { TFunction } from 'i18next';

/** Marks the stripe_test flow's screens (SPEC.md §2) as QA tools, not part of the funnel. */
export function TestNotice({ t }: { t: TFunction }) {
  return (
    <p className="test-notice" role="note">
      {t('after.test.notice')}
    </p>
  );
}
