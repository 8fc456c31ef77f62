import { TrustLabels } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { defaultPhoneCountry } from './phone-country';

/**
 * The phone form island with everything it needs as plain props: the country list named in the
 * page language, the visitor's country as the default (SPEC.md §2), and every text translated.
 * Under it, the consent promise of SPEC.md §1 and the trust labels of §2.
 */
export function PhoneSection({
  t,
  continueAction,
  next,
  country,
  language,
  refusedPhone,
}: Pick<ScreenProps, 't' | 'continueAction' | 'next' | 'country' | 'language' | 'refusedPhone'>) {
  return (
    <div className="phone-section">
      <Island
        name="PhoneForm"
        props={{
          action: continueAction,
          next,
          language,
          defaultCountry: defaultPhoneCountry(country),
          labels: {
            phone: t('landing.phone.label'),
            country: t('landing.phone.country'),
            placeholder: t('landing.phone.placeholder'),
            locate: t('landing.phone.locate'),
            invalid: t('landing.phone.invalid'),
            empty: t('landing.phone.empty'),
            checking: t('kit.continue_busy'),
            loadFailed: t('errors.lookup_failed'),
          },
          refused: refusedPhone,
        }}
      />
      <p className="phone-section__consent">{t('landing.consent')}</p>
      <TrustLabels t={t} />
    </div>
  );
}
