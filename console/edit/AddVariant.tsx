import { type FormEvent, useId, useState } from 'react';
import type { ConfigDocument } from '../../shared/console-api/config';
import { variantKeyProblem } from '../config-names';
import { addVariant } from '../stores/draft';
import { $editStatus } from '../stores/status';
import { parseWeight } from './WeightInput';

/** The flow choice that makes a new flow for the variant. */
const NEW_FLOW = '';

/** A new variant: its key, its weight, and an existing flow or a new one named after it. */
export function AddVariant({ document }: { document: ConfigDocument }) {
  const id = useId();
  const [key, setKey] = useState('');
  const [weight, setWeightText] = useState('');
  const [flow, setFlow] = useState(NEW_FLOW);
  const [problems, setProblems] = useState<{ key?: string; weight?: string }>({});
  const flowNames = Object.keys(document.flows.flows);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typedWeight = parseWeight(weight);
    const found = {
      key: variantKeyProblem(key, document.split) ?? undefined,
      weight:
        Number.isFinite(typedWeight) && typedWeight >= 0 ? undefined : 'Enter a number, 0 or more.',
    };
    setProblems(found);
    const firstProblem = found.key ? 'key' : found.weight ? 'weight' : null;
    if (firstProblem) {
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${firstProblem}"]`)?.focus();
      return;
    }
    const flowName = flow === NEW_FLOW ? key.replace('/', '_') : flow;
    const isNew = !Object.hasOwn(document.flows.flows, flowName);
    addVariant(key, { weight: typedWeight, flow: flowName });
    $editStatus.set(
      isNew
        ? `Added ${key} to the draft, with a new flow ${flowName} copied from default.`
        : `Added ${key} to the draft; it walks ${flowName}.`,
    );
    setKey('');
    setWeightText('');
    setFlow(NEW_FLOW);
  }

  return (
    <form className="block add-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Add a variant</h3>
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
            aria-invalid={Boolean(problems.key) || undefined}
            aria-describedby={`${id}-key-hint${problems.key ? ` ${id}-key-problem` : ''}`}
            onChange={(event) => setKey(event.target.value.trim())}
          />
          <p className="muted field__after" id={`${id}-key-hint`}>
            "type" or "type/subtype", lower case: lp18, lp18/b
          </p>
          {problems.key ? (
            <p className="field-problem" id={`${id}-key-problem`}>
              {problems.key}
            </p>
          ) : null}
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
            aria-invalid={Boolean(problems.weight) || undefined}
            aria-describedby={problems.weight ? `${id}-weight-problem` : undefined}
            onChange={(event) => setWeightText(event.target.value)}
          />
          {problems.weight ? (
            <p className="field-problem" id={`${id}-weight-problem`}>
              {problems.weight}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-flow`}>Flow</label>
          <select id={`${id}-flow`} value={flow} onChange={(event) => setFlow(event.target.value)}>
            <option value={NEW_FLOW}>A new flow named after the key (a copy of default)</option>
            {flowNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--action">
          <button type="submit" className="button">
            Add variant
          </button>
        </div>
      </div>
    </form>
  );
}
