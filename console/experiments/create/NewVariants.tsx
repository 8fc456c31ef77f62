import type { ScreenChoice } from '../../../shared/console-api/config';
import { useStore } from '../../kit/stores/atom';
import { ChangePicker } from '../ChangePicker';
import { PRESET_DEFINITIONS, VARIANT_KEYS } from '../experiment-presets';
import type { CreateExperimentForm } from '../stores/create-experiment';

/** The control, then each variant with what it changes; up to five in all, equal weights. */
export function NewVariants(props: {
  id: string;
  form: CreateExperimentForm;
  flows: readonly string[];
  screens: readonly ScreenChoice[];
  contentVariants: Readonly<Record<string, readonly string[]>>;
  saveOffers: readonly string[];
}) {
  const { id, form } = props;
  const { preset, changes } = useStore(form.$form);
  const problems = useStore(form.$problems);
  return (
    <>
      <h4>Variants</h4>
      <p className="muted">
        {PRESET_DEFINITIONS[preset].change.kind === 'saveOffer'
          ? 'Variant a is the control: the save offer as written.'
          : 'Variant a is the control: the route as it is.'}{' '}
        Every variant gets the same weight.
      </p>
      <ol className="rows" aria-label="Variants of the new experiment">
        <li className="row">
          <p>
            <strong>a</strong> (control): changes nothing.
          </p>
        </li>
        {changes.map((change, index) => {
          const key = VARIANT_KEYS[index + 1] ?? String(index + 1);
          return (
            <li className="row" key={key} data-field={`change-${index}`}>
              <p>
                <strong>{key}</strong>
              </p>
              <ChangePicker
                id={`${id}-change-${key}`}
                variant={key}
                kind={PRESET_DEFINITIONS[preset].change}
                change={change}
                flows={props.flows}
                screens={props.screens}
                contentVariants={props.contentVariants}
                saveOffers={props.saveOffers}
                problem={problems[`change-${index}`] ?? null}
                onChange={(next) => form.setChange(index, next)}
              />
              {index > 0 ? (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => form.removeChange(index)}
                >
                  Remove variant {key}
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {changes.length < VARIANT_KEYS.length - 1 ? (
        <p>
          <button type="button" className="button button--small" onClick={form.addChange}>
            Add a variant
          </button>
        </p>
      ) : null}
    </>
  );
}
