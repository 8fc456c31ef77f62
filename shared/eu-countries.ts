/**
 * The member states of the European Union (ISO 3166-1 alpha-2), as of 2026: the one list that
 * the rules bound by EU law read (the tax-inclusive price: shared/plans/tax-display.ts; the
 * payable button: shared/plans/renewal-consent.ts), so a country that joins or leaves is changed
 * once. Greece is `GR` (ISO), not the EU's own `EL`.
 */
export const EU_MEMBER_STATES: readonly string[] = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];

/**
 * The EEA states outside the EU: the EEA Agreement brings the EU's consumer law (the Consumer
 * Rights Directive, the price indication directive) into their law as well.
 */
export const EEA_EFTA_STATES: readonly string[] = ['IS', 'LI', 'NO'];
