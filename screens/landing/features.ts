/** The features the copy claims (SPEC.md §1), in the order the landings list them. */
export const FEATURES = [
  'tracking',
  'history',
  'alerts',
  'checkin',
  'sos',
  'groups',
  'chat',
  'anonymous',
] as const;
