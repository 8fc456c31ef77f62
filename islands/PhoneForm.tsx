import { type FormEvent, useId, useState } from 'react';
import type { RefusedPhone } from '../shared/phone/posted-phone';
import { emit } from './analytics/emit';
import { navigate } from './boot';
import { ContinueButton } from './kit/ContinueButton';
import { PhoneInput } from './kit/PhoneInput';
import { countryOptions, serverRenderedOptions } from './phone/country-options';
import type { CheckedPhone, PhoneChecks } from './phone/phone-checks';
import { usePhoneEntry } from './phone/use-phone-checks';
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
  /** The Locate button's label while the number's rules load (`kit.continue_busy`). */
  checking: string;
  /** SPEC.md §8, a phone lookup that failed with no message: the rules could not be loaded. */
  loadFailed: string;
}

/**
 * SPEC.md §2 Locate: checks the number once its rules and zones are here; a valid one is kept
 * for the searching screen and the visitor moves on. Resolves with the text to show beside the
 * field, or null when the visitor moved on.
 */
async function locate(
  checks: () => Promise<PhoneChecks>,
  { value, country }: { value: string; country: string },
  next: string,
  labels: PhoneFormLabels,
): Promise<string | null> {
  let checked: CheckedPhone;
  try {
    checked = await (await checks()).check(value, country);
  } catch {
    return labels.loadFailed;
  }
  if (checked.e164 === null) return labels[checked.refusal];
  // A new number makes the previous lookup stale.
  $map.set({
    phone: checked.e164,
    phoneDisplay: checked.display,
    numberData: null,
    initCoords: null,
  });
  // SPEC.md §4 onboarding_start: the visitor starts the funnel with a number to locate.
  emit('onboarding_start', { country });
  navigate(next);
  return null;
}

/** The form's refusal, its busy Locate and the submit that checks, moves on or says why. */
function useLocate(
  phone: ReturnType<typeof usePhoneEntry>['phone'],
  entry: { value: string; country: string },
  next: string | null,
  labels: PhoneFormLabels,
  inputId: string,
  refusal: string | null,
) {
  const [error, setError] = useState<string | null>(refusal);
  const [checking, setChecking] = useState(false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Last screen of a flow, or the rules' code failed to load: the worker checks the post.
    if (!next || (phone.failed && !phone.checks)) return;
    event.preventDefault();
    if (checking) return;
    setChecking(true);
    locate(phone.engage, entry, next, labels).then((refused) => {
      setChecking(false);
      if (refused === null) return;
      setError(refused);
      document.getElementById(inputId)?.focus();
    });
  };
  return { error, setError, checking, onSubmit };
}

/**
 * The landing's phone form (SPEC.md §1, §2): the phone field and the Locate button, which is the
 * screen's Continue control. Locate refuses a number that is not valid for its country, saying
 * why beside the field; a valid one is kept in E.164 in $map.phone for the searching screen and
 * the visitor moves on. The rules (shared/phone/phone-rules.ts, the worker's own) load when the
 * visitor turns to the form, with the plans of the numbering zones the number needs; Locate
 * waits for them, busy, and says so if they cannot load, the number kept. Before the script
 * runs, or when the rules' code could not load, the form posts to the worker, which checks the
 * number by the same rule and answers the page again with `refused` when it fails.
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
  const inputId = useId();
  const { phone, entry, setEntry } = usePhoneEntry(
    { value: refused?.value ?? '', country: refused?.country ?? defaultCountry },
    inputId,
  );
  const { error, setError, checking, onSubmit } = useLocate(
    phone,
    entry,
    next,
    labels,
    inputId,
    refused ? labels[refused.refusal] : null,
  );
  const selectId = useId();
  const errorId = useId();
  // Named on the server (Intl.DisplayNames in the page language); the browser reads the
  // server's options back instead of receiving them twice.
  const [countries] = useState(() => serverRenderedOptions(selectId) ?? countryOptions(language));

  return (
    // No data-next: until this island answers the submit (before it hydrates, or if its script
    // never loads), the number must reach the worker in the post, not be left behind by the
    // page script's move to the next screen (islands/boot.ts).
    <form
      method="post"
      action={action}
      className="phone-form"
      noValidate
      onSubmit={onSubmit}
      onFocus={phone.warmUp}
      onPointerDown={phone.warmUp}
    >
      <PhoneInput
        id={inputId}
        selectId={selectId}
        value={entry.value}
        country={entry.country}
        countries={countries}
        label={labels.phone}
        countryLabel={labels.country}
        placeholder={labels.placeholder}
        invalid={error !== null}
        describedBy={error ? errorId : undefined}
        format={phone.checks?.format}
        onChange={({ value, country, formatted }) => {
          phone.warmUp();
          setEntry({ value, country, unformatted: formatted === false });
          setError(null);
        }}
      />
      {error ? (
        <p id={errorId} className="phone-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <ContinueButton label={labels.locate} busy={checking} busyLabel={labels.checking} />
    </form>
  );
}
