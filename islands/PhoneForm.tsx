import { type FormEvent, useId, useState } from 'react';
import { checkPhone, formatInternational } from '../shared/phone/phone-number';
import type { RefusedPhone } from '../shared/phone/posted-phone';
import { emit } from './analytics/emit';
import { navigate } from './boot';
import { ContinueButton } from './kit/ContinueButton';
import { PhoneInput } from './kit/PhoneInput';
import { countryOptions, serverRenderedOptions } from './phone/country-options';
import { $map } from './stores/map';

export interface PhoneFormLabels {
  phone: string;
  country: string;
  placeholder: string;
  locate: string;
  /** Shown when Locate is pressed with a number that is not valid for the chosen country. */
  invalid: string;
  /** Shown when Locate is pressed with an empty field. */
  empty: string;
}

/**
 * The landing's phone form (SPEC.md §1, §2): the phone field and the Locate button, which is the
 * screen's Continue control. Locate refuses a number that is not valid for its country, saying
 * why beside the field; a valid one is kept in E.164 in $map.phone for the searching screen and
 * the visitor moves on. Before the script runs, the form posts to the worker, which checks the
 * number by the same rule (shared/phone/phone-number.ts) and answers the page again with
 * `refused` when it fails.
 */
export default function PhoneForm({
  action,
  next,
  language,
  defaultCountry,
  labels,
  refused,
}: {
  action: string;
  next: string | null;
  /** Page language: the country list is named and sorted in it. */
  language: string;
  defaultCountry: string;
  labels: PhoneFormLabels;
  /** The worker's refusal of a post made before this script ran: shown again, nothing lost. */
  refused?: RefusedPhone;
}) {
  const [value, setValue] = useState(refused?.value ?? '');
  const [country, setCountry] = useState(refused?.country ?? defaultCountry);
  const [error, setError] = useState<string | null>(refused ? labels[refused.refusal] : null);
  const inputId = useId();
  const selectId = useId();
  const errorId = useId();
  // Named on the server (all regions libphonenumber knows, Intl.DisplayNames in the page
  // language); the browser reads the server's options back instead of receiving them twice.
  const [countries] = useState(() => serverRenderedOptions(selectId) ?? countryOptions(language));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Last screen of a flow: nowhere to go but where the worker sends the post.
    if (!next) return;
    event.preventDefault();
    const check = checkPhone(value, country);
    if (check.refusal !== null) {
      setError(labels[check.refusal]);
      document.getElementById(inputId)?.focus();
      return;
    }
    // A new number makes the previous lookup stale.
    $map.set({
      phone: check.e164,
      phoneDisplay: formatInternational(check.e164),
      numberData: null,
      initCoords: null,
    });
    // SPEC.md §4 onboarding_start: the visitor starts the funnel with a number to locate.
    emit('onboarding_start', { country });
    navigate(next);
  };

  return (
    // No data-next: until this island answers the submit (before it hydrates, or if its script
    // never loads), the number must reach the worker in the post, not be left behind by the
    // page script's move to the next screen (islands/boot.ts).
    <form method="post" action={action} className="phone-form" noValidate onSubmit={onSubmit}>
      <PhoneInput
        id={inputId}
        selectId={selectId}
        value={value}
        country={country}
        countries={countries}
        label={labels.phone}
        countryLabel={labels.country}
        placeholder={labels.placeholder}
        invalid={error !== null}
        describedBy={error ? errorId : undefined}
        onChange={(change) => {
          setValue(change.value);
          setCountry(change.country);
          setError(null);
        }}
      />
      {error ? (
        <p id={errorId} className="phone-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <ContinueButton label={labels.locate} />
    </form>
  );
}
