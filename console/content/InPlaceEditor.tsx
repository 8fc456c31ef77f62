import { useState } from 'react';
import { textVariables } from '../../shared/copy-placeholders';
import { languageName, sectionName } from '../kit/content-text';
import { CopyProblems, FieldAbout } from './CopyFields';
import { copyProblems } from './copy-problems';
import type { InPlaceProps, Spot } from './in-place-targets';
import { $contentAnnouncement, select, setText } from './stores/content-editor';

/** The field's least width: room for a short text's length line and its buttons. */
const MIN_WIDTH = 280;
/** Room the field takes below the text's top, kept inside the frame. */
const ROOM = 230;

/**
 * Where the field goes: over the text, as wide as it or MIN_WIDTH, inside the frame. In the
 * frame's pixels; a frame drawn at half size (desktop) has the field scaled back by CSS.
 */
function placeOver(frame: HTMLIFrameElement, spot: Spot) {
  const zoom = frame.offsetWidth / (frame.getBoundingClientRect().width || frame.offsetWidth);
  const width = Math.min(Math.max(spot.width, MIN_WIDTH * zoom), frame.clientWidth - 8);
  return {
    top: Math.max(0, Math.min(spot.top, frame.clientHeight - ROOM * zoom)),
    left: Math.max(4, Math.min(spot.left, frame.clientWidth - width - 4)),
    width: width / zoom,
  };
}

/**
 * One text of the preview in a field over where it is drawn: its copy key's text with its
 * `{{placeholders}}` as written, checked as the copy field checks it. Saved into the same draft
 * text as the field (Enter or Save), only whole: a text that loses a placeholder or passes the
 * section's limit stays here with what is wrong, so the preview never shows it broken. Escape
 * or Cancel leaves the draft as it was.
 */
export function InPlaceEditor(
  props: InPlaceProps & { spot: Spot; text: string; onClose: () => void },
) {
  const { catalogue, screen, language, spot, frame } = props;
  const [text, setValue] = useState(props.text);
  const choice = screen.sections[spot.section];
  const maxChars = choice?.maxChars ?? 0;
  const english = catalogue.texts.en?.[spot.key] ?? props.text;
  const problems = copyProblems({
    key: spot.key,
    english,
    text,
    maxChars,
    path: `content.screens.${screen.id}.copy.${language}.${spot.key}`,
    issues: text === props.text ? props.issues : [],
  });
  const save = () => {
    // Unchanged, there is nothing to save (what the check says of it stays said at its field).
    if (text !== props.text) {
      if (problems.length > 0) return;
      setText(language, spot.key, text);
      $contentAnnouncement.set(`${sectionName(spot.section)}: text changed in place.`);
    }
    select({ section: spot.section });
    props.onClose();
  };
  const id = 'in-place-field';
  return (
    <div className="in-place__editor" style={placeOver(frame, spot)}>
      <label htmlFor={id}>
        {sectionName(spot.section)} in {languageName(language)}: <code>{spot.key}</code>
      </label>
      <textarea
        id={id}
        className="input"
        lang={language}
        dir={catalogue.rtl.includes(language) ? 'rtl' : 'ltr'}
        rows={Math.min(5, Math.ceil(text.length / 32) || 1)}
        value={text}
        // biome-ignore lint/a11y/noAutofocus: opened by its button, the field is where the marketer goes.
        autoFocus
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={`${id}-about${problems.length > 0 ? ` ${id}-problems` : ''}`}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onClose();
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            save();
          }
        }}
      />
      <FieldAbout
        id={`${id}-about`}
        length={text.length}
        maxChars={maxChars}
        source="Enter saves, Escape cancels"
        variables={textVariables(english)}
      />
      <CopyProblems id={`${id}-problems`} problems={problems} />
      <div className="in-place__actions">
        <button type="button" className="button button--small button--primary" onClick={save}>
          Save
        </button>
        <button type="button" className="button button--small" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
