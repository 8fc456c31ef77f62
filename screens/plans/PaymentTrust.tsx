import type { TFunction } from 'i18next';
import { type PaymentProvider, ProviderLogo } from '../kit/ProviderLogo';
import { SupportLinks } from '../kit/SupportLinks';
import { TrustLabels } from '../kit/TrustLabels';
import { GuaranteeBadge } from './GuaranteeBadge';

/**
 * What reassures a visitor under a price: the money-back guarantee, the trust labels, who
 * takes the payment, and the support and legal links (SPEC.md §2 Other UI pieces).
 */
export function PaymentTrust({
  t,
  providers,
}: {
  t: TFunction;
  providers: readonly PaymentProvider[];
}) {
  return (
    <>
      <GuaranteeBadge t={t} />
      <TrustLabels t={t} />
      {providers.length ? (
        <p className="payment-trust__providers">
          {providers.map((provider) => (
            <ProviderLogo key={provider} t={t} provider={provider} />
          ))}
        </p>
      ) : null}
      <SupportLinks t={t} />
    </>
  );
}
