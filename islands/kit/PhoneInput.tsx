import { type ChangeEvent, useRef } from 'react';
import { HEATMAP_MASK } from '../../shared/analytics/heatmap';
import { type CountryOption, optionText } from '../phone/country-options';
import { useTypedBeforeHydration } from './typed-before-hydration';

interface PhoneInputProps {
  id: string;
  /** Id of the country <select>. */
  selectId?: string;
  value: string;
  country: string;
  countries: readonly CountryOption[];
  /** Visible label of the number field. */
  label: string;
  /** Accessible name of the country list. */
  countryLabel: string;
  placeholder?: string;
  /** Id of the message explaining why the number was refused. */
  describedBy?: string;
  invalid?: boolean;
  /**
   * The number as typed so far, formatted for its country (a + prefix names its own), or null
   * while the rules for it load (islands/phone/phone-checks.ts): the text stays as typed.
   */
  format?: Format;
  /** `formatted` is false where the text stays as typed because its rules were not here yet. */
  onChange: (next: { value: string; country: string; formatted?: boolean }) => void;
}

type Format = (input: string, country: string) => { text: string; country: string } | null;

/** The text with its country, formatted where the rules for it are here. */
function formatted(format: Format | undefined, typed: string, country: string) {
  const done = format?.(typed, country);
  return done
    ? { value: done.text, country: done.country }
    : { value: typed, country, formatted: false };
}

/** The number and country after an edit of the number field, which held `value` before. */
function typedNumber(
  input: HTMLInputElement,
  value: string,
  country: string,
  format: Format | undefined,
): { value: string; country: string; formatted?: boolean } {
  const typed = input.value;
  // Reformatting while the caret is mid-number would throw it to the end: format only when
  // the visitor types at the end, which is how numbers are entered.
  const atEnd = input.selectionStart === null || input.selectionStart >= typed.length;
  // Deleting a formatting character must not be undone by formatting it straight back.
  const deleting = typed.length < value.length;
  if (!atEnd || deleting) return { value: typed, country };
  return formatted(format, typed, country);
}

/**
 * A phone-number field (SPEC.md §9: 51px high) with its country. The number is formatted for
 * the country as the visitor types (libphonenumber AsYouType, through `format`, once its rules
 * have loaded); a number typed with + switches
 * the country to the one it names. The native <select> lies over a short "US +1" summary, so
 * the field stays narrow and still works with the keyboard, screen readers and without script.
 */
export function PhoneInput({
  id,
  selectId,
  value,
  country,
  countries,
  label,
  countryLabel,
  placeholder,
  describedBy,
  invalid = false,
  format,
  onChange,
}: PhoneInputProps) {
  const selected = countries.find((option) => option.code === country);
  const numberRef = useRef<HTMLInputElement>(null);
  const countryRef = useRef<HTMLSelectElement>(null);
  useTypedBeforeHydration(
    [
      { ref: numberRef, rendered: value },
      { ref: countryRef, rendered: country },
    ],
    ([typed = value, chosen = country]) => {
      onChange(formatted(format, typed, chosen));
    },
  );

  const onNumber = (event: ChangeEvent<HTMLInputElement>) =>
    onChange(typedNumber(event.target, value, country, format));

  const onCountry = (event: ChangeEvent<HTMLSelectElement>) =>
    onChange({ value, country: event.target.value });

  return (
    <div className={`phone-input${invalid ? ' phone-input--invalid' : ''}`}>
      <label className="phone-input__label" htmlFor={id}>
        {label}
      </label>
      <div className="phone-input__row">
        <span className="phone-input__country">
          <span className="phone-input__summary" aria-hidden="true" dir="ltr">
            {country} +{selected?.dial}
          </span>
          <select
            ref={countryRef}
            id={selectId}
            className="phone-input__select"
            name="country"
            aria-label={countryLabel}
            value={country}
            onChange={onCountry}
          >
            {countries.map((option) => (
              <option key={option.code} value={option.code}>
                {optionText(option)}
              </option>
            ))}
          </select>
        </span>
        <input
          ref={numberRef}
          id={id}
          className="phone-input__number"
          {...HEATMAP_MASK}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          placeholder={placeholder}
          value={value}
          onChange={onNumber}
        />
      </div>
    </div>
  );
}
