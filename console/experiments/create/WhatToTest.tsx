import type { ConfigDocument } from '../../../shared/console-api/config';
import { LAYERS, type Layer } from '../../../shared/experiments';
import { ProblemLine, problemAria } from '../../kit/field-problem';
import { nameOptions } from '../../kit/SelectField';
import { useStore } from '../../kit/stores/atom';
import { PRESET_DEFINITIONS, PRESETS, type Preset } from '../experiment-presets';
import { TextAreaField } from '../FormFields';
import { freeRanges } from '../layer-space';
import { type CreateExperimentForm, layerPercent, takenForForm } from '../stores/create-experiment';

interface Props {
  id: string;
  form: CreateExperimentForm;
  document: ConfigDocument;
}

/** The preset, the experiment's name and its layer, with the layer's free space said. */
export function WhatToTest({ id, form, document }: Props) {
  const { preset, name } = useStore(form.$form);
  const problems = useStore(form.$problems);
  return (
    <div className="row__fields">
      <div className="field">
        <label htmlFor={`${id}-preset`}>What to test</label>
        <select
          id={`${id}-preset`}
          value={preset}
          onChange={(event) => form.choosePreset(event.target.value as Preset, document)}
        >
          {nameOptions(PRESETS, (each) => PRESET_DEFINITIONS[each].label)}
        </select>
      </div>
      <div className="field" data-field="name">
        <label htmlFor={`${id}-name`}>Experiment name</label>
        <input
          id={`${id}-name`}
          className="input"
          autoComplete="off"
          maxLength={120}
          value={name}
          {...problemAria(id, problems, 'name')}
          onChange={(event) => form.update({ name: event.target.value })}
        />
        <ProblemLine id={id} problems={problems} field="name" />
      </div>
      <LayerField id={id} form={form} document={document} />
    </div>
  );
}

function LayerField({ id, form, document }: Props) {
  const current = useStore(form.$form);
  const { preset, layer } = current;
  const free = freeRanges(takenForForm(document, current));
  const problems = useStore(form.$problems);
  return (
    <div className="field" data-field="layer">
      <label htmlFor={`${id}-layer`}>Layer</label>
      <select
        id={`${id}-layer`}
        value={layer}
        {...problemAria(id, problems, 'layer', `${id}-layer-hint`)}
        onChange={(event) => form.chooseLayer(event.target.value as Layer, document)}
      >
        {LAYERS.map((each) => (
          <option key={each} value={each}>
            {each}
            {each === PRESET_DEFINITIONS[preset].layer ? ' (suggested)' : ''}
          </option>
        ))}
      </select>
      <p className="muted field__after" id={`${id}-layer-hint`}>
        Free in layer {layer}:{' '}
        {free.length === 0
          ? 'nothing'
          : free.map(([a, b]) => `${layerPercent(a)}–${layerPercent(b)}%`).join(', ')}
        .
      </p>
      <ProblemLine id={id} problems={problems} field="layer" />
    </div>
  );
}

/** Why the marketer expects the change to win; the preset's own hypothesis as the placeholder. */
export function HypothesisField({ id, form }: Omit<Props, 'document'>) {
  const { preset, hypothesis } = useStore(form.$form);
  return (
    <TextAreaField
      id={`${id}-hypothesis`}
      label="Hypothesis"
      maxLength={1000}
      placeholder={PRESET_DEFINITIONS[preset].hypothesis}
      value={hypothesis}
      onChange={(text) => form.update({ hypothesis: text })}
    />
  );
}
