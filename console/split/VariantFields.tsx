import type { SplitDocument, VariantDocument } from '../../shared/config/split';
import { flowNameOf } from '../kit/config-names';
import { FieldMessages, useFieldErrors } from '../kit/FieldMessages';
import { nameOptions } from '../kit/SelectField';
import { chooseFlow, pauseVariant, resumeVariant } from '../kit/stores/draft';
import { WeightInput } from '../kit/WeightInput';
import { formatShare } from './shares';

export interface VariantFieldsProps {
  variantKey: string;
  variant: VariantDocument;
  split: SplitDocument;
  share: number;
  flowNames: string[];
  /** Its weight before it was paused in this draft, if it was. */
  pausedWeight: number | undefined;
}

/** One variant's weight, flow and pause/resume. */
export function VariantFields(props: VariantFieldsProps) {
  const { variantKey: key, variant, split, share, flowNames, pausedWeight } = props;
  const path = `split.variants.${key}`;
  const whole = useFieldErrors(path);
  const flowField = useFieldErrors(`${path}.flow`);
  const flow = flowNameOf(split, key);
  const flowId = `flow:${key}`;
  return (
    <fieldset className="row" aria-describedby={whole.describedBy}>
      <legend className="row__title">
        {key} {variant.weight === 0 ? <span className="badge badge--paused">paused</span> : null}
      </legend>
      <FieldMessages path={path} />
      <div className="row__fields">
        <div className="field">
          <WeightInput variantKey={key} weight={variant.weight} />
          <p className="muted field__after">{formatShare(share)} of new visitors</p>
        </div>
        <div className="field">
          <label htmlFor={flowId}>
            Flow<span className="visually-hidden"> of {key}</span>
          </label>
          <select
            id={flowId}
            value={flow}
            aria-invalid={flowField.invalid || undefined}
            aria-describedby={flowField.describedBy}
            onChange={(event) => chooseFlow(key, event.target.value)}
          >
            {flowNames.includes(flow) ? null : (
              <option value={flow}>{flow} (does not exist: visitors get default)</option>
            )}
            {nameOptions(flowNames)}
          </select>
          <FieldMessages path={`${path}.flow`} />
        </div>
        <div className="field field--action">
          {variant.weight !== 0 ? (
            <button type="button" className="button" onClick={() => pauseVariant(key)}>
              Pause<span className="visually-hidden"> {key}</span>
            </button>
          ) : pausedWeight !== undefined ? (
            <button type="button" className="button" onClick={() => resumeVariant(key)}>
              Resume<span className="visually-hidden"> {key}</span>
            </button>
          ) : (
            <p className="muted">Paused: give it a weight above 0 to resume it.</p>
          )}
        </div>
      </div>
    </fieldset>
  );
}
