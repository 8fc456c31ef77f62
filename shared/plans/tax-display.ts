import { EEA_EFTA_STATES, EU_MEMBER_STATES } from '../eu-countries';

/**
 * Where the law wants the price a consumer sees to include tax, and the note that says so.
 * The charge takes the price shown everywhere (nothing is added at checkout), so the amount is
 * right in every country; what differs is what a shown price must say about tax:
 *
 * - EU and EEA: Directive 98/6/EC (price indication) and 2011/83/EU art. 6(1)(e): the selling
 *   price is the final price including VAT and all other taxes. The EU 27, NO, IS, LI.
 * - GB: Consumer Protection from Unfair Trading Regulations 2008 and the Price Marking Order 2004;
 *   CH: Price Indication Ordinance (PBV) art. 3: prices include VAT ("inkl. MWST").
 * - AU: Competition and Consumer Act 2010, s. 48 (single price, GST included); NZ: Goods and
 *   Services Tax Act 1985 s. 75 and Fair Trading Act: prices shown to consumers include GST.
 * - JP: Consumption Tax Act, total price display (総額表示) obligation since 1 April 2021.
 * - IN: Legal Metrology (Packaged Commodities) Rules 2011 and Consumer Protection (E-Commerce)
 *   Rules 2020: the total price including all taxes (GST).
 * - BR: Law 12,741/2012 and Decree 7,962/2013: e-commerce shows the total price with taxes;
 *   TR: Price Labelling Regulation (Fiyat Etiketi Yönetmeliği): prices include all taxes (KDV);
 *   MX: Ley Federal de Protección al Consumidor art. 7 bis: the total price including IVA.
 * - ZA (Consumer Protection Act s. 23, VAT), SG (GST Act, display inclusive of GST), KR (VAT Act
 *   display inclusive), AE and SA (VAT law: prices shown to consumers include VAT).
 *
 * The United States and Canada let a price be shown before sales tax; as nothing is added to the
 * price shown, they get no note (see docs/payments.md "Tax and the price shown"). Countries not
 * listed get none either.
 */
export type TaxNote = 'vat' | 'gst' | 'tax';

/** The note a price shown to a visitor of each country carries; absent: none. */
const TAX_INCLUSIVE_COUNTRIES: Readonly<Record<string, TaxNote>> = {
  ...Object.fromEntries(
    [...EU_MEMBER_STATES, ...EEA_EFTA_STATES].map((country) => [country, 'vat' as const]),
  ),
  GB: 'vat',
  CH: 'vat',
  TR: 'vat',
  MX: 'vat',
  ZA: 'vat',
  KR: 'vat',
  AE: 'vat',
  SA: 'vat',
  AU: 'gst',
  NZ: 'gst',
  IN: 'gst',
  SG: 'gst',
  JP: 'tax',
  BR: 'tax',
};

/** The note for a visitor of `country`, or null where none is wanted (or the country is unknown). */
export function taxNoteFor(country: string | null | undefined): TaxNote | null {
  if (!country) return null;
  const code = country.toUpperCase();
  return Object.hasOwn(TAX_INCLUSIVE_COUNTRIES, code)
    ? (TAX_INCLUSIVE_COUNTRIES[code] ?? null)
    : null;
}
