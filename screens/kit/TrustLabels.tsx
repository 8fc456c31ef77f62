import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { SectionSpec } from './arrangement';
import type { SectionKind } from './composition';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="trust-labels__icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

const SHIELD = (
  <Icon>
    <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.3 7.5 9.5 4.3-1.2 7.5-4.9 7.5-9.5V6z" />
  </Icon>
);
const LOCK = (
  <Icon>
    <rect x="5" y="10.5" width="14" height="10" rx="2" />
    <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" />
  </Icon>
);
const CONSENT = (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="m8 12.5 2.7 2.7L16 9.8" />
  </Icon>
);

/** SPEC.md §2 trust labels: confidential, secure SSL, consent. */
export function TrustLabels({ t }: { t: TFunction }) {
  const labels: [ReactNode, string][] = [
    [SHIELD, t('kit.trust.confidential')],
    [LOCK, t('kit.trust.ssl')],
    [CONSENT, t('kit.trust.consent')],
  ];
  return (
    <ul className="trust-labels" aria-label={t('kit.trust.label')}>
      {labels.map(([icon, text]) => (
        <li key={text} className="trust-labels__item">
          {icon}
          {text}
        </li>
      ))}
    </ul>
  );
}

/** The trust section of any screen that places one: the labels alone, the same everywhere. */
export function trustSection(spec: SectionSpec): SectionKind {
  return { ...spec, render: ({ t }) => <TrustLabels t={t} /> };
}
