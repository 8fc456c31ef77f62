/**
 * The card's network as the provider reports it, for the retry governor's rules
 * (worker/retry-governor/governor.ts). Any other network, or none reported, is `unknown`, which
 * gets both networks' rules: the stricter of each.
 */
export type CardNetwork = 'visa' | 'mastercard' | 'unknown';

/** A provider's brand (`visa`, `Visa`, `mastercard`, `MasterCard`) as the governor's network. */
export function cardNetworkOf(brand: unknown): CardNetwork {
  if (typeof brand !== 'string') return 'unknown';
  const word = brand.toLowerCase().replace(/[^a-z]/g, '');
  if (word === 'visa') return 'visa';
  if (word === 'mastercard' || word === 'master') return 'mastercard';
  return 'unknown';
}
