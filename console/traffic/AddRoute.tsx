import { type FormEvent, memo, useId, useState } from 'react';
import type { FlowsDocument } from '../../shared/console-api';
import type { RoutingDocument } from '../../shared/routing';
import { NameField } from '../edit/NameField';
import { routeIdProblem } from '../routing-edits';
import { addRoute } from '../stores/draft';
import { $editStatus } from '../stores/status';

/** A new route, placed just above default; its audience must be saved first. */
export const AddRoute = memo(function AddRoute({
  routing,
  flows,
}: {
  routing: RoutingDocument;
  flows: FlowsDocument;
}) {
  const document = { routing, flows };
  const id = useId();
  const audiences = Object.keys(document.routing.audiences);
  const [name, setName] = useState('');
  const [audience, setAudience] = useState('');
  const [flow, setFlow] = useState('default');
  const [problem, setProblem] = useState<string | null>(null);
  const chosenAudience = audiences.includes(audience) ? audience : (audiences[0] ?? '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found =
      routeIdProblem(name, document.routing) ??
      (chosenAudience === '' ? 'Save an audience below first: a route takes an audience.' : null);
    setProblem(found);
    if (found) {
      event.currentTarget.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    addRoute({ id: name, audience: chosenAudience, flow });
    $editStatus.set(`Added the route ${name} above default, taking ${chosenAudience} to ${flow}.`);
    setName('');
  }

  return (
    <form className="block add-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Add a route</h3>
      <div className="row__fields">
        <NameField id={id} label="Route name" value={name} problem={problem} onChange={setName} />
        <div className="field">
          <label htmlFor={`${id}-audience`}>Audience of the new route</label>
          <select
            id={`${id}-audience`}
            value={chosenAudience}
            onChange={(event) => setAudience(event.target.value)}
          >
            {audiences.length === 0 ? <option value="">No audience saved yet</option> : null}
            {audiences.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-flow`}>Flow of the new route</label>
          <select id={`${id}-flow`} value={flow} onChange={(event) => setFlow(event.target.value)}>
            {Object.keys(document.flows.flows).map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--action">
          <button type="submit" className="button">
            Add route
          </button>
        </div>
      </div>
    </form>
  );
});
