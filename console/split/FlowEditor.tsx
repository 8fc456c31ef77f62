import { useId, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ScreenChoice } from '../../shared/console-api/config';
import { FieldMessages, useFieldErrors } from '../kit/FieldMessages';
import { FieldProblem } from '../kit/field-problem';
import { MoveButtons } from '../kit/MoveButtons';
import { nameOptions } from '../kit/SelectField';
import { addScreen, moveScreen, removeScreen } from '../kit/stores/draft';
import { $editStatus } from '../kit/stores/status';

function buttonId(action: 'up' | 'down' | 'remove', flow: string, screen: string): string {
  return `${action}:${flow}:${screen}`;
}

/** Runs an edit and renders it at once, so focus can go to a control of the new render. */
function editThenFocus(editing: () => void, focusId: string): void {
  flushSync(editing);
  document.getElementById(focusId)?.focus();
}

/** The kinds of screen in the order a flow walks them, for the picker's groups. */
const KIND_ORDER = [
  'landing',
  'question',
  'searching',
  'signup',
  'checkout',
  'paywall',
  'upsell',
  'end',
];

function groupedByKind(choices: readonly ScreenChoice[]): [string, ScreenChoice[]][] {
  const groups = new Map<string, ScreenChoice[]>();
  for (const choice of choices)
    groups.set(choice.kind, [...(groups.get(choice.kind) ?? []), choice]);
  const rank = (kind: string) => (KIND_ORDER.includes(kind) ? KIND_ORDER.indexOf(kind) : 99);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b));
}

/**
 * One flow's screens in order, each with Up, Down and Remove, and a picker of the known screens
 * it does not list yet. Moving keeps focus on the moved screen's button; ends are aria-disabled
 * rather than disabled, so focus never falls off a button that became an end.
 */
export function FlowEditor(props: {
  name: string;
  screens: readonly string[];
  walkedBy: string[];
  choices: readonly ScreenChoice[];
}) {
  const { name, screens, walkedBy, choices } = props;
  const id = useId();
  const path = `flows.flows.${name}`;
  const whole = useFieldErrors(path);

  function move(index: number, by: -1 | 1) {
    const screen = screens[index];
    const target = index + by;
    if (screen === undefined || target < 0 || target >= screens.length) return;
    editThenFocus(
      () => moveScreen(name, index, by),
      buttonId(by < 0 ? 'up' : 'down', name, screen),
    );
    $editStatus.set(`${screen} is screen ${target + 1} of ${screens.length} in ${name}.`);
  }

  function remove(index: number) {
    const screen = screens[index];
    if (screen === undefined) return;
    const next = screens[index + 1] ?? screens[index - 1];
    const focusId = next ? buttonId('remove', name, next) : `${id}-add`;
    editThenFocus(() => removeScreen(name, index), focusId);
    $editStatus.set(`Removed ${screen} from ${name}.`);
  }

  return (
    // Closed until wanted: a phone shows every flow's summary, not every screen's buttons. A flow
    // the worker refused opens by itself.
    <details className="row flow-editor" open={whole.invalid || undefined}>
      <summary className="row__title">
        Flow {name}{' '}
        <span className="muted flow-editor__summary">
          {screens.length} {screens.length === 1 ? 'screen' : 'screens'},{' '}
          {walkedBy.length > 0
            ? `walked by ${walkedBy.join(', ')}`
            : 'nothing walks it: no variant, route or experiment'}
        </span>
      </summary>
      <fieldset className="flow-editor__fields" aria-describedby={whole.describedBy}>
        <legend className="visually-hidden">Flow {name}</legend>
        <FieldMessages path={path} />
        <ol className="screen-list">
          {screens.map((screen, index) => (
            <li key={screen} className="screen-list__item">
              <span className="chip">
                <span className="muted">{index + 1}.</span> {screen}
              </span>
              <MoveButtons
                as="span"
                {...screenButtons(name, screen)}
                first={index === 0}
                last={index === screens.length - 1}
                onMove={(by) => move(index, by)}
                onRemove={() => remove(index)}
              />
              <FieldMessages path={`${path}.${index}`} />
            </li>
          ))}
        </ol>
        <AddScreen
          id={id}
          name={name}
          addable={choices.filter((choice) => !screens.includes(choice.id))}
        />
      </fieldset>
    </details>
  );
}

/** The known screens a flow does not list yet, one of which goes to its end. */
function AddScreen({
  id,
  name,
  addable,
}: {
  /** The flow editor's id: the Add button is `${id}-add`, where focus goes after the last remove. */
  id: string;
  name: string;
  addable: readonly ScreenChoice[];
}) {
  const [toAdd, setToAdd] = useState('');
  const [hint, setHint] = useState('');

  function add() {
    if (toAdd === '') {
      setHint('Choose a screen to add first.');
      return;
    }
    addScreen(name, toAdd);
    $editStatus.set(`Added ${toAdd} to the end of ${name}.`);
    setToAdd('');
    setHint('');
  }

  return (
    <div className="add-screen">
      <label htmlFor={`${id}-pick`}>
        Screen to add<span className="visually-hidden"> to {name}</span>
      </label>
      <select
        id={`${id}-pick`}
        value={toAdd}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => setToAdd(event.target.value)}
      >
        <option value="">Choose a screen…</option>
        {groupedByKind(addable).map(([kind, group]) => (
          <optgroup key={kind} label={kind}>
            {nameOptions(group.map((choice) => choice.id))}
          </optgroup>
        ))}
      </select>
      <button type="button" className="button" id={`${id}-add`} onClick={add}>
        Add screen<span className="visually-hidden"> to {name}</span>
      </button>
      <FieldProblem id={`${id}-hint`} problem={hint} />
    </div>
  );
}

/** The ids and names of a screen's Up, Down and Remove in flow `name`. */
function screenButtons(name: string, screen: string) {
  return {
    ids: {
      up: buttonId('up', name, screen),
      down: buttonId('down', name, screen),
      remove: buttonId('remove', name, screen),
    },
    labels: {
      up: `Move ${screen} up in ${name}`,
      down: `Move ${screen} down in ${name}`,
      remove: `Remove ${screen} from ${name}`,
    },
  };
}
