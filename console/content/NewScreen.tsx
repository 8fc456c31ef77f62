import { useState } from 'react';
import type { ContentCatalogue } from '../../shared/console-api/content';
import { composedNameProblem, isComposedIn } from '../kit/composed-screens';
import { screenName, slotName } from '../kit/content-text';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { createComposedScreen, deleteComposedScreen } from './stores/composed-screens';
import { $contentSelection } from './stores/content-editor';

/**
 * "New screen": a screen composed from the sections of a screen in code of a slot, named as its
 * path will be (the name is checked as it is typed), then edited like any screen and added to a
 * flow. The selected composed screen can be deleted here, unless a flow still shows it.
 */
export function NewScreen({ catalogue }: { catalogue: ContentCatalogue }) {
  const slots = [...new Set(catalogue.screens.map((screen) => screen.slot))];
  const [slot, setSlot] = useState(slots[0] ?? '');
  const starts = catalogue.screens.filter((screen) => screen.slot === slot);
  const [from, setFrom] = useState(starts[0]?.id ?? '');
  return (
    <fieldset className="content-new-screen">
      <legend>New screen</legend>
      <p className="muted">
        Compose a screen of your own from the sections of one in code: it keeps what that screen
        does in the flow, and is edited here like any screen.
      </p>
      <div className="field-row">
        <SelectField
          id="content-new-screen-slot"
          label="Slot"
          value={slot}
          onChange={(value) => {
            setSlot(value);
            setFrom(catalogue.screens.find((screen) => screen.slot === value)?.id ?? '');
          }}
        >
          {nameOptions(slots, slotName)}
        </SelectField>
        <SelectField
          id="content-new-screen-from"
          label="Start from"
          value={from}
          onChange={setFrom}
        >
          {nameOptions(
            starts.map((screen) => screen.id),
            screenName,
          )}
        </SelectField>
        <NewScreenName slot={slot} from={from} />
      </div>
      <DeleteComposed />
    </fieldset>
  );
}

/** The new screen's name, checked as it is typed, and the button that makes it. */
function NewScreenName({ slot, from }: { slot: string; from: string }) {
  const [name, setName] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const draft = useStore($draft);
  const content = draft?.document.content;
  const typed = name.trim();
  const problem = content && typed !== '' ? composedNameProblem(content, typed) : null;
  const shown = refusal ?? problem;
  const create = () => {
    const refused = createComposedScreen({ id: typed, slot, from });
    setRefusal(refused);
    if (refused === null) setName('');
  };
  return (
    <div className="field">
      <label htmlFor="content-new-screen-name">Name (its address)</label>
      <div className="field-inline">
        <input
          id="content-new-screen-name"
          className="input"
          value={name}
          placeholder="spring_landing"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={shown ? true : undefined}
          aria-describedby="content-new-screen-name-hint"
          onChange={(event) => {
            setName(event.target.value);
            setRefusal(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') create();
          }}
        />
        <button type="button" className="button button--small" onClick={create}>
          Create screen
        </button>
      </div>
      <p
        id="content-new-screen-name-hint"
        className={shown ? 'field-problem' : 'muted'}
        aria-live="polite"
      >
        {shown ??
          (typed === '' ? 'Lower-case letters, digits and _.' : `Visitors will open /${typed}.`)}
      </p>
    </div>
  );
}

/** Deletes the selected composed screen, or says which flows keep it. */
function DeleteComposed() {
  const selection = useStore($contentSelection);
  const draft = useStore($draft);
  const [refusal, setRefusal] = useState<{ screen: string; text: string } | null>(null);
  if (!draft || !isComposedIn(draft.document.content, selection.screen)) return null;
  const said = refusal?.screen === selection.screen ? refusal.text : null;
  return (
    <div className="field">
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          const refused = deleteComposedScreen();
          setRefusal(refused === null ? null : { screen: selection.screen, text: refused });
        }}
      >
        Delete screen {selection.screen}
      </button>
      {said ? (
        <p className="field-problem" role="alert">
          {said}
        </p>
      ) : null}
    </div>
  );
}
