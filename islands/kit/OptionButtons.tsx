import { useId, useState } from 'react';

export interface Option {
  value: string;
  label: string;
}

export interface OptionButtonsProps {
  /** The question the options answer; the group's accessible name. */
  legend: string;
  options: readonly Option[];
  /** Form field name, so the choice also posts with a server form. */
  name?: string;
  /** The chosen value when the caller keeps it (e.g. in a store); otherwise kept here. */
  value?: string | null;
  defaultValue?: string | null;
  onChange?: (value: string) => void;
  /** Show the legend visually; some screens put the question in their heading instead. */
  showLegend?: boolean;
  /** Choosing moves on to another screen: the choice is reported as option__redirect. */
  redirects?: boolean;
}

/**
 * SPEC.md §2 selectable option buttons: a radio group made of native radios, so it needs no
 * script to be chosen or posted, and arrow keys move the choice the way every browser does.
 */
export function OptionButtons({
  legend,
  options,
  name,
  value,
  defaultValue = null,
  onChange,
  showLegend = true,
  redirects = false,
}: OptionButtonsProps) {
  const generatedName = useId();
  const [ownValue, setOwnValue] = useState(defaultValue);
  const selected = value === undefined ? ownValue : value;

  return (
    <fieldset className="option-buttons">
      <legend className={showLegend ? 'option-buttons__legend' : 'visually-hidden'}>
        {legend}
      </legend>
      {options.map((option) => {
        const checked = option.value === selected;
        return (
          <label
            key={option.value}
            className={
              checked
                ? 'option-buttons__option option-buttons__option--selected'
                : 'option-buttons__option'
            }
          >
            <input
              className="option-buttons__input"
              type="radio"
              name={name ?? generatedName}
              value={option.value}
              checked={checked}
              data-event={redirects ? 'option__redirect' : undefined}
              onChange={() => {
                setOwnValue(option.value);
                onChange?.(option.value);
              }}
            />
            {option.label}
          </label>
        );
      })}
    </fieldset>
  );
}
