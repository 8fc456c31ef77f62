import { type FormEvent, useId, useState } from 'react';
import type { ConfigDocument } from '../../shared/console-api/config';
import { AddButton, AddForm } from '../kit/AddForm';
import { flowNameProblem } from '../kit/config-names';
import { NameField } from '../kit/NameField';
import { nameOptions, SelectField } from '../kit/SelectField';
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
    <AddForm id={id} title="Add a flow" onSubmit={onSubmit}>
      <div className="row__fields">
        <NameField id={id} label="Name" value={name} problem={problem} onChange={setName} />
        <SelectField
          id={`${id}-copy`}
          label="Start as a copy of"
          value={copyOf}
          onChange={setCopyOf}
        >
          {nameOptions(flowNames)}
        </SelectField>
        <AddButton label="Add flow" />
      </div>
    </AddForm>
  );
}
