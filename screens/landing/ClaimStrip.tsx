import type { TFunction } from 'i18next';

const CLAIMS = ['users', 'accuracy', 'platforms', 'guarantee'] as const;

/** SPEC.md §1 claims in one glance: 10+ million users, 5 m accuracy, iOS and Android, refund. */
export function ClaimStrip({ t, ai = false }: { t: TFunction; ai?: boolean }) {
  const claims = ai ? (['ai', ...CLAIMS.slice(0, 3)] as const) : CLAIMS;
  return (
    <ul className="claim-strip" aria-label={t('landing.claims.label')}>
      {claims.map((claim) => (
        <li key={claim} className="claim-strip__item">
          {t(`landing.claims.${claim}`)}
        </li>
      ))}
    </ul>
  );
}
