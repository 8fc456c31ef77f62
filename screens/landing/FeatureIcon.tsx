/** Line icons of the features claimed in the copy (SPEC.md §1), drawn in the theme's colour. */
const PATHS = {
  tracking:
    'M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11zM12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
  history: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2',
  alerts: 'M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
  checkin: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM8 12l3 3 5-6',
  sos: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM12 8v5M12 16v.5',
  groups:
    'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 20c0-3.3 2.7-6 6-6s6 2.7 6 6M16 5a3 3 0 0 1 0 6M18 14c2 .6 3 2.8 3 6',
  chat: 'M4 5h16v11H9l-5 4z',
  anonymous:
    'M3 3l18 18M10.6 6.1A10 10 0 0 1 12 6c5 0 9 6 9 6a17 17 0 0 1-2.4 3M6.5 7.6C4.3 9.2 3 12 3 12s4 6 9 6c1.6 0 3-.5 4.2-1.2',
  ai: 'M12 3l2 6 6 2-6 2-2 6-2-6-6-2 6-2z',
} as const;

export type FeatureIconName = keyof typeof PATHS;

export function FeatureIcon({ name }: { name: FeatureIconName }) {
  return (
    <svg className="feature-icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
