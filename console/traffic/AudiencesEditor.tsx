import { type FormEvent, memo, useId, useState } from 'react';
import type { AudienceDocument, Condition, RoutingDocument } from '../../shared/config/routing';
import { audienceText } from '../audience-text';
import { NameField } from '../edit/NameField';
import { audienceNameProblem, routesUsing } from '../routing-edits';
import { saveAudience } from '../stores/draft';
import { $editStatus } from '../stores/status';
import { ConditionFields, NEW_CONDITION } from './ConditionFields';

/** Why the audience cannot be saved as it is, or null. */
function audienceProblem(name: string, groups: Condition[][]): string | null {
  const named = audienceNameProblem(name);
  if (named) return named;
  if (groups.length === 0 || groups.some((group) => group.length === 0)) {
    return 'Each group needs at least one condition.';
  }
  if (groups.some((group) => group.some((condition) => condition.values.length === 0))) {
    return 'Add at least one value to each condition.';
  }
  return null;
}

/** A condition or group in the form, with a key of its own: removing one keeps the others' state. */
interface Keyed<T> {
  key: number;
  value: T;
}

let nextKey = 0;
const keyed = <T,>(value: T): Keyed<T> => ({ key: ++nextKey, value });

const keyedGroups = (groups: readonly Condition[][]): Keyed<Keyed<Condition>[]>[] =>
  groups.map((group) => keyed(group.map(keyed)));

const plainGroups = (groups: readonly Keyed<Keyed<Condition>[]>[]): Condition[][] =>
  groups.map((group) => group.value.map((condition) => condition.value));

/** The form of one audience: its name, and groups of conditions (any group, all conditions). */
function AudienceForm({
  initial,
  taken,
  onDone,
}: {
  initial: { name: string; audience: AudienceDocument } | null;
  /** The names saved already, which a new audience may not take. */
  taken: readonly string[];
  onDone: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [label, setLabel] = useState(initial?.audience.label ?? '');
  const [form, setForm] = useState(() =>
    keyedGroups(initial?.audience.groups ?? [[NEW_CONDITION]]),
  );
  const groups = plainGroups(form);
  const [problem, setProblem] = useState<string | null>(null);
  const editing = initial !== null;

  const conditionName = (group: number, index: number) =>
    groups.length > 1 ? `condition ${index + 1} of group ${group + 1}` : `condition ${index + 1}`;

  function changeGroup(
    group: number,
    change: (conditions: Keyed<Condition>[]) => Keyed<Condition>[],
  ) {
    setForm(
      form.map((each, index) => (index === group ? { ...each, value: change(each.value) } : each)),
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found =
      !editing && taken.includes(name)
        ? `${name} is an audience already: edit it above.`
        : audienceProblem(name, groups);
    setProblem(found);
    // The alert says what is wrong; focus stays where the marketer is.
    if (found) return;
    const audience: AudienceDocument = label.trim() ? { label: label.trim(), groups } : { groups };
    saveAudience(name, audience);
    $editStatus.set(`Saved the audience ${name}: ${audienceText(audience)}.`);
    onDone();
  }

  return (
    <form className="block add-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h4 id={`${id}-title`}>{editing ? `Edit the audience ${name}` : 'New audience'}</h4>
      <div className="row__fields">
        <NameField
          id={id}
          label="Audience name"
          value={name}
          readOnly={editing}
          onChange={setName}
        />
        <div className="field">
          <label htmlFor={`${id}-label`}>Description (optional)</label>
          <input
            id={`${id}-label`}
            className="input"
            maxLength={80}
            value={label}
            onChange={(event) => setLabel(event.target.value)}
          />
        </div>
      </div>
      <p className="muted">
        A visitor is in the audience when all the conditions of any one group hold.
      </p>
      {form.map(({ key, value: conditions }, group) => (
        <fieldset className="condition-group" key={key}>
          <legend>{groups.length > 1 ? `Group ${group + 1}` : 'Conditions'}</legend>
          {conditions.map((condition, index) => (
            <ConditionFields
              key={condition.key}
              condition={condition.value}
              name={conditionName(group, index)}
              onChange={(next) =>
                changeGroup(group, (each) =>
                  each.map((old, at) => (at === index ? { ...old, value: next } : old)),
                )
              }
              onRemove={() => changeGroup(group, (each) => each.filter((_, at) => at !== index))}
            />
          ))}
          <button
            type="button"
            className="button button--small"
            aria-label={
              groups.length > 1 ? `Add a condition to group ${group + 1}` : 'Add a condition'
            }
            onClick={() => changeGroup(group, (each) => [...each, keyed(NEW_CONDITION)])}
          >
            Add a condition
          </button>
        </fieldset>
      ))}
      <p>
        <button
          type="button"
          className="button button--small"
          onClick={() => setForm([...form, keyed([keyed(NEW_CONDITION)])])}
        >
          Add another group (or)
        </button>
      </p>
      {problem ? (
        <p className="field-problem" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      ) : null}
      <p className="muted">Reads: {audienceText({ groups })}</p>
      <div className="confirm__actions">
        <button type="submit" className="button button--primary">
          Save audience
        </button>
        {editing ? (
          <button type="button" className="button button--quiet" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** The draft's saved audiences, where each is used, and the form that adds or edits one. */
export const AudiencesEditor = memo(function AudiencesEditor({
  routing,
}: {
  routing: RoutingDocument;
}) {
  const { audiences } = routing;
  const [editing, setEditing] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const editedAudience = editing ? audiences[editing] : undefined;
  const done = () => {
    setEditing(null);
    setFormKey(formKey + 1);
  };
  return (
    <div className="block">
      <h3>Audiences</h3>
      {Object.keys(audiences).length === 0 ? (
        <p className="muted">No audience saved yet.</p>
      ) : (
        <ul className="rows" aria-label="Saved audiences">
          {Object.entries(audiences).map(([name, audience]) => {
            const users = routesUsing(routing, name);
            return (
              <li key={name} className="row">
                <h4 className="row__title">
                  {name}
                  {audience.label ? <span className="muted"> — {audience.label}</span> : null}
                </h4>
                <p>{audienceText(audience)}</p>
                <p className="muted">
                  {users.length > 0 ? `Used by ${users.join(', ')}.` : 'Not used by any route.'}
                </p>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Edit the audience ${name}`}
                  onClick={() => {
                    setEditing(name);
                    setFormKey(formKey + 1);
                  }}
                >
                  Edit
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <AudienceForm
        key={formKey}
        initial={editing && editedAudience ? { name: editing, audience: editedAudience } : null}
        taken={Object.keys(audiences)}
        onDone={done}
      />
    </div>
  );
});
