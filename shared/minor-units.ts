/**
 * How many minor units a currency's major unit has, as a power of ten: 2 for USD and EUR (cents),
 * 0 for JPY, 3 for KWD (ISO 4217, as Intl knows it). Null for a code Intl does not know.
 */
export function minorDigits(currency: string): number | null {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return null;
  }
}
