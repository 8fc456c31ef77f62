import { type DragEvent, type KeyboardEvent, useState } from 'react';
import type { ComposedScreenChoice } from '../../shared/console-api/content';
import { AddButton } from '../kit/AddForm';
import { requiredReason, sectionName } from '../kit/content-text';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import type { SectionRow } from './content-edits';
import {
  $contentSelection,
  addSection,
  moveSectionTo,
  removeSection,
  select,
  setSectionVisible,
} from './stores/content-editor';

/**
 * The screen's sections in order, the editor's main surface: each row selects its section's
 * copy, moves by its buttons, by Alt+Arrow keys or by drag, shows or hides, and goes; a required
 * section's hide and remove say why they cannot. Focus stays on the control that moved.
 */
export function SectionList({
  screen,
  rows,
  addable,
}: {
  screen: ComposedScreenChoice;
  rows: SectionRow[];
  addable: string[];
}) {
  const [dragged, setDragged] = useState<number | null>(null);
  return (
    <div className="content-sections">
      <h3 id="content-sections-title">Sections</h3>
      <p className="muted" id="content-sections-hint">
        Drag a section, or use its Move buttons or Alt+Up and Alt+Down, to change the order.
      </p>
      <ol
        className="content-sections__list"
        aria-labelledby="content-sections-title"
        aria-describedby="content-sections-hint"
      >
        {rows.map((row, index) => (
          <SectionListRow
            key={row.id}
            screen={screen}
            row={row}
            index={index}
            count={rows.length}
            dragged={dragged}
            setDragged={setDragged}
          />
        ))}
      </ol>
      {addable.length > 0 ? <AddSection addable={addable} /> : null}
    </div>
  );
}

/** What a row being dragged carries: its index, which only this list reads. */
const DRAG_TYPE = 'application/x-geofunnel-section';

/** Keeps focus on the control that was focused once its row has moved in the list. */
function moveKeepingFocus(from: number, to: number): void {
  const active = document.activeElement;
  moveSectionTo(from, to);
  if (active instanceof HTMLElement && active.id) {
    requestAnimationFrame(() => document.getElementById(active.id)?.focus());
  }
}

function SectionListRow(props: {
  screen: ComposedScreenChoice;
  row: SectionRow;
  index: number;
  count: number;
  dragged: number | null;
  setDragged(index: number | null): void;
}) {
  const { screen, row, index, count } = props;
  const selection = useStore($contentSelection);
  const name = sectionName(row.id);
  const id = `content-section-${row.id}`;
  const reasonId = `${id}-required`;
  const selected = (selection.section ?? defaultSection(screen)) === row.id;
  const onKeyDown = (event: KeyboardEvent) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    const to = index + (event.key === 'ArrowUp' ? -1 : 1);
    if (to >= 0 && to < count) moveKeepingFocus(index, to);
  };
  const drag = {
    draggable: true,
    onDragStart: (event: DragEvent) => {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData(DRAG_TYPE, String(index));
      props.setDragged(index);
    },
    onDragOver: (event: DragEvent) => {
      if (event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      const carried = event.dataTransfer.getData(DRAG_TYPE);
      const from = carried === '' ? props.dragged : Number(carried);
      event.preventDefault();
      props.setDragged(null);
      if (from !== null && Number.isInteger(from) && from !== index) moveSectionTo(from, index);
    },
    onDragEnd: () => props.setDragged(null),
  };
  return (
    <li
      className={`content-section${row.visible ? '' : ' content-section--hidden'}${selected ? ' content-section--selected' : ''}`}
      data-section={row.id}
      onKeyDown={onKeyDown}
      {...drag}
    >
      <span className="content-section__grip" aria-hidden="true">
        ⠿
      </span>
      <button
        type="button"
        className="content-section__name"
        id={`${id}-edit`}
        aria-pressed={selected}
        aria-label={`${name}, position ${index + 1} of ${count}${row.visible ? '' : ', hidden'}: edit its copy`}
        onClick={() => select({ section: row.id })}
      >
        {name}
        {row.visible ? null : <span className="muted"> (hidden)</span>}
      </button>
      {row.required ? (
        <span className="content-section__lock" id={reasonId}>
          <LockIcon />
          Required. {requiredReason(row.id, screen.sections[row.id]?.requiredReason)}
        </span>
      ) : null}
      <RowActions {...props} name={name} id={id} reasonId={row.required ? reasonId : undefined} />
    </li>
  );
}

/** The first section, selected when none is. */
function defaultSection(screen: ComposedScreenChoice): string | undefined {
  return screen.composition[0];
}

function RowActions(props: {
  row: SectionRow;
  index: number;
  count: number;
  name: string;
  id: string;
  reasonId: string | undefined;
}) {
  const { row, index, count, name, id, reasonId } = props;
  const locked = row.required;
  return (
    <span className="actions content-section__actions">
      <button
        type="button"
        className="button button--small"
        id={`${id}-up`}
        aria-label={`Move up: ${name}`}
        aria-disabled={index === 0 || undefined}
        onClick={() => index > 0 && moveKeepingFocus(index, index - 1)}
      >
        Move up
      </button>
      <button
        type="button"
        className="button button--small"
        id={`${id}-down`}
        aria-label={`Move down: ${name}`}
        aria-disabled={index === count - 1 || undefined}
        onClick={() => index < count - 1 && moveKeepingFocus(index, index + 1)}
      >
        Move down
      </button>
      <button
        type="button"
        className="button button--small"
        id={`${id}-shown`}
        aria-label={`Show: ${name}`}
        aria-pressed={row.visible}
        aria-disabled={locked || undefined}
        aria-describedby={reasonId}
        onClick={() => !locked && setSectionVisible(row.id, !row.visible)}
      >
        Show
      </button>
      <button
        type="button"
        className="button button--small"
        id={`${id}-remove`}
        aria-label={`Remove: ${name}`}
        aria-disabled={locked || undefined}
        aria-describedby={reasonId}
        onClick={() => !locked && removeSection(row.id)}
      >
        Remove
      </button>
    </span>
  );
}

function AddSection({ addable }: { addable: string[] }) {
  const [choice, setChoice] = useState('');
  const value = addable.includes(choice) ? choice : (addable[0] ?? '');
  return (
    <form
      className="field-row content-sections__add"
      onSubmit={(event) => {
        event.preventDefault();
        if (value) addSection(value);
      }}
    >
      <SelectField
        id="content-add-section"
        label="Add a section"
        value={value}
        onChange={setChoice}
      >
        {nameOptions(addable, sectionName)}
      </SelectField>
      <AddButton label="Add" />
    </form>
  );
}

/** A padlock beside a required section's reason; the word "Required" says it to everyone. */
function LockIcon() {
  return (
    <svg
      className="content-section__lock-icon"
      viewBox="0 0 16 16"
      width="14"
      height="14"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="currentColor"
        d="M5 7V5a3 3 0 0 1 6 0v2h1a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1h1Zm1.5 0h3V5a1.5 1.5 0 0 0-3 0v2Z"
      />
    </svg>
  );
}
