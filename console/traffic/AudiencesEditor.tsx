import { type FormEvent, memo, useId, useState } from 'react';
import type { AudienceDocument, Condition, RoutingDocument } from '../../shared/config/routing';
import { AddForm } from '../kit/AddForm';
import { audienceText } from '../kit/audience-text';
import { NameField } from '../kit/NameField';
import { audienceNameProblem, routesUsing } from '../kit/routing-edits';
import { saveAudience } from '../kit/stores/draft';
import { $editStatus } from '../kit/stores/status';
import { ConditionFields, NEW_CONDITION } from './ConditionFields';

/**
 * Why the audience cannot be saved as it is, or null. A new audience may not take a name in
 * `taken`; an edited one (taken null) keeps its own.
 */
function audienceProblem(
  name: string,
  groups: Condition[][],
  taken: readonly string[] | null,
): string | null {
  if (taken?.includes(name)) return `${name} is an audience already: edit it above.`;
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

type KeyedGroups = Keyed<Keyed<Condition>[]>[];

const keyedGroups = (groups: readonly Condition[][]): KeyedGroups =>
  groups.map((group) => keyed(group.map(keyed)));

const plainGroups = (groups: Readonly<KeyedGroups>): Condition[][] =>
  groups.map((group) => group.value.map((condition) => condition.value));

type ConditionsChange = (conditions: Keyed<Condition>[]) => Keyed<Condition>[];

/** One group of an audience's conditions, all of which must hold. */
function ConditionGroup(props: {
  group: number;
  /** How many groups the audience has: with one, neither it nor its conditions say a group. */
  count: number;
  conditions: Keyed<Condition>[];
  onChange(change: ConditionsChange): void;
}) {
  const { group, count, onChange } = props;
  const conditionName = (index: number) =>
    count > 1 ? `condition ${index + 1} of group ${group + 1}` : `condition ${index + 1}`;
  return (
    <fieldset className="condition-group">
      <legend>{count > 1 ? `Group ${group + 1}` : 'Conditions'}</legend>
      {props.conditions.map((condition, index) => (
        <ConditionFields
          key={condition.key}
          condition={condition.value}
          name={conditionName(index)}
          onChange={(next) =>
            onChange((each) =>
              each.map((old, at) => (at === index ? { ...old, value: next } : old)),
            )
          }
          onRemove={() => onChange((each) => each.filter((_, at) => at !== index))}
        />
      ))}
      <button
        type="button"
        className="button button--small"
        aria-label={count > 1 ? `Add a condition to group ${group + 1}` : 'Add a condition'}
        onClick={() => onChange((each) => [...each, keyed(NEW_CONDITION)])}
      >
        Add a condition
      </button>
    </fieldset>
  );
}

/** The audience's name (fixed once saved) and its optional description. */
function AudienceNames(props: {
  id: string;
  name: string;
  label: string;
  editing: boolean;
  onName(name: string): void;
  onLabel(label: string): void;
}) {
  const { id } = props;
  return (
    <div className="row__fields">
      <NameField
        id={id}
        label="Audience name"
        value={props.name}
        readOnly={props.editing}
        onChange={props.onName}
      />
      <div className="field">
        <label htmlFor={`${id}-label`}>Description (optional)</label>
        <input
          id={`${id}-label`}
          className="input"
          maxLength={80}
          value={props.label}
          onChange={(event) => props.onLabel(event.target.value)}
        />
      </div>
    </div>
  );
}

/** The audience's groups, any one of which lets a visitor in, and the button that adds one. */
function ConditionGroups({
  form,
  onChange,
}: {
  form: KeyedGroups;
  onChange(form: KeyedGroups): void;
}) {
  const changeGroup = (group: number, change: ConditionsChange) =>
    onChange(
      form.map((each, at) => (at === group ? { ...each, value: change(each.value) } : each)),
    );
  return (
    <>
      {form.map(({ key, value: conditions }, group) => (
        <ConditionGroup
          key={key}
          group={group}
          count={form.length}
          conditions={conditions}
          onChange={(change) => changeGroup(group, change)}
        />
      ))}
      <p>
        <button
          type="button"
          className="button button--small"
          onClick={() => onChange([...form, keyed([keyed(NEW_CONDITION)])])}
        >
          Add another group (or)
        </button>
      </p>
    </>
  );
}

interface AudienceFormProps {
  initial: { name: string; audience: AudienceDocument } | null;
  /** The names saved already, which a new audience may not take. */
  taken: readonly string[];
  onDone: () => void;
}

/** The form of one audience: its name, and groups of conditions (any group, all conditions). */
function AudienceForm({ initial, taken, onDone }: AudienceFormProps) {
  const id = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [label, setLabel] = useState(initial?.audience.label ?? '');
  const [form, setForm] = useState(() =>
    keyedGroups(initial?.audience.groups ?? [[NEW_CONDITION]]),
  );
  const groups = plainGroups(form);
  const [problem, setProblem] = useState<string | null>(null);
  const editing = initial !== null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = audienceProblem(name, groups, editing ? null : taken);
    setProblem(found);
    // The alert says what is wrong; focus stays where the marketer is.
    if (found) return;
    const audience: AudienceDocument = label.trim() ? { label: label.trim(), groups } : { groups };
    saveAudience(name, audience);
    $editStatus.set(`Saved the audience ${name}: ${audienceText(audience)}.`);
    onDone();
  }

  return (
    <AddForm
      id={id}
      title={editing ? `Edit the audience ${name}` : 'New audience'}
      headingLevel={4}
      onSubmit={onSubmit}
    >
      <AudienceNames
        id={id}
        name={name}
        label={label}
        editing={editing}
        onName={setName}
        onLabel={setLabel}
      />
      <p className="muted">
        A visitor is in the audience when all the conditions of any one group hold.
      </p>
      <ConditionGroups form={form} onChange={setForm} />
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
    </AddForm>
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
