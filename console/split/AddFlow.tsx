import { type FormEvent, useId, useState } from 'react';
import type { ConfigDocument } from '../../shared/console-api/config';
import { flowNameProblem } from '../kit/config-names';
import { NameField } from '../kit/NameField';
import { addFlow } from '../kit/stores/draft';
import { $editStatus } from '../kit/stores/status';

/** A new flow, starting as a copy of an existing one (a flow must list at least one screen). */
export function AddFlow({ document }: { document: ConfigDocument }) {
  const id = useId();
  const [name, setName] = useState('');
  const [copyOf, setCopyOf] = useState('default');
  const [problem, setProblem] = useState<string | null>(null);
  const flowNames = Object.keys(document.flows.flows);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = flowNameProblem(name, document.flows.flows);
    setProblem(found);
    if (found) {
      event.currentTarget.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    addFlow(name, copyOf);
    $editStatus.set(`Added the flow ${name}, a copy of ${copyOf}. Pick it for a variant above.`);
    setName('');
  }

  return (
    <form className="block add-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Add a flow</h3>
      <div className="row__fields">
        <NameField id={id} label="Name" value={name} problem={problem} onChange={setName} />
        <div className="field">
          <label htmlFor={`${id}-copy`}>Start as a copy of</label>
          <select
            id={`${id}-copy`}
            value={copyOf}
            onChange={(event) => setCopyOf(event.target.value)}
          >
            {flowNames.map((flow) => (
              <option key={flow} value={flow}>
                {flow}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--action">
          <button type="submit" className="button">
            Add flow
          </button>
        </div>
      </div>
    </form>
  );
}
