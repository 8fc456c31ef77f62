import { type FormEvent, useId, useState } from 'react';
import type { ConfigDocument } from '../../shared/console-api/config';
import { AddButton, AddForm } from '../kit/AddForm';
import { variantKeyProblem } from '../kit/config-names';
import { ProblemLine, problemAria } from '../kit/field-problem';
import { nameOptions, SelectField } from '../kit/SelectField';
import { addVariant } from '../kit/stores/draft';
import { $editStatus } from '../kit/stores/status';
import { typedNumber } from '../kit/WeightInput';

/** The flow choice that makes a new flow for the variant. */
const NEW_FLOW = '';

type Problems = { key?: string; weight?: string };

/** What keeps the new variant out of the draft: its key, or a weight that is no number. */
function variantProblems(key: string, weight: number, document: ConfigDocument): Problems {
  return {
    key: variantKeyProblem(key, document.split) ?? undefined,
    weight: Number.isFinite(weight) && weight >= 0 ? undefined : 'Enter a number, 0 or more.',
  };
}

/** Adds the variant, walking `flow` or a new flow named after it, and says which. */
function addToDraft(key: string, weight: number, flow: string, document: ConfigDocument): void {
  const flowName = flow === NEW_FLOW ? key.replace('/', '_') : flow;
  const isNew = !Object.hasOwn(document.flows.flows, flowName);
  addVariant(key, { weight, flow: flowName });
  $editStatus.set(
    isNew
      ? `Added ${key} to the draft, with a new flow ${flowName} copied from default.`
      : `Added ${key} to the draft; it walks ${flowName}.`,
  );
}

/** A new variant: its key, its weight, and an existing flow or a new one named after it. */
export function AddVariant({ document }: { document: ConfigDocument }) {
  const id = useId();
  const [key, setKey] = useState('');
  const [weight, setWeightText] = useState('');
  const [flow, setFlow] = useState(NEW_FLOW);
  const [problems, setProblems] = useState<Problems>({});
  const flowNames = Object.keys(document.flows.flows);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typedWeight = typedNumber(weight);
    const found = variantProblems(key, typedWeight, document);
    setProblems(found);
    const firstProblem = found.key ? 'key' : found.weight ? 'weight' : null;
    if (firstProblem) {
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${firstProblem}"]`)?.focus();
      return;
    }
    addToDraft(key, typedWeight, flow, document);
    setKey('');
    setWeightText('');
    setFlow(NEW_FLOW);
  }

  return (
    <AddForm id={id} title="Add a variant" onSubmit={onSubmit}>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-key`}>Key</label>
          <input
            id={`${id}-key`}
            name="key"
            className="input"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={key}
            {...problemAria(id, problems, 'key', `${id}-key-hint`)}
            onChange={(event) => setKey(event.target.value.trim())}
          />
          <p className="muted field__after" id={`${id}-key-hint`}>
            "type" or "type/subtype", lower case: lp18, lp18/b
          </p>
          <ProblemLine id={id} problems={problems} field="key" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-weight`}>Weight</label>
          <input
            id={`${id}-weight`}
            name="weight"
            className="input input--number"
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={weight}
            {...problemAria(id, problems, 'weight')}
            onChange={(event) => setWeightText(event.target.value)}
          />
          <ProblemLine id={id} problems={problems} field="weight" />
        </div>
        <SelectField id={`${id}-flow`} label="Flow" value={flow} onChange={setFlow}>
          <option value={NEW_FLOW}>A new flow named after the key (a copy of default)</option>
          {nameOptions(flowNames)}
        </SelectField>
        <AddButton label="Add variant" />
      </div>
    </AddForm>
  );
}
