import { useEffect, useMemo, useRef, useState } from 'react';
import { sectionName } from '../kit/content-text';
import { ownText } from './content-edits';
import { InPlaceEditor } from './InPlaceEditor';
import { type CopyTarget, findTexts, type InPlaceProps, type Spot } from './in-place-targets';

/**
 * The preview's texts, edited where they stand: a button laid over each text of the frame that
 * a copy key of the screen says, which opens a field over it. The buttons are the console's own,
 * over the frame, never in it: the frame runs no script (../kit/PreviewFrame.tsx), and the page
 * in it is the one a visitor gets, with no editing code or attribute. The console only reads the
 * frame's page (it is same-origin, `srcdoc`) to find where each text is drawn.
 */

function targetsOf(props: InPlaceProps): CopyTarget[] {
  const { catalogue, screen, language, drawn } = props;
  const texts = catalogue.texts[language] ?? {};
  return Object.entries(screen.sections).flatMap(([section, choice]) =>
    choice.keys.flatMap((key) => {
      const text = ownText(drawn, screen.id, language, key) ?? texts[key];
      return text ? [{ key, section, text }] : [];
    }),
  );
}

/** The least width and height of a text drawn for the eye; a visually hidden one is 1 px. */
const SEEN_PX = 4;

/**
 * The spots of the frame's page, measured again as it scrolls or is resized. Found once per
 * page, with the texts as they are when it loads: the texts change first (an edit), the page
 * a moment later (the preview drawn again), and a text is only found on the page that says it.
 */
function useSpots(frame: HTMLIFrameElement, loads: number, targets: readonly CopyTarget[]) {
  const [spots, setSpots] = useState<Spot[]>([]);
  const latest = useRef(targets);
  latest.current = targets;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new load is a new page to measure.
  useEffect(() => {
    const page = frame.contentDocument;
    const view = frame.contentWindow;
    if (!page?.body || !view) return;
    const found = findTexts(page.body, latest.current);
    const measure = () =>
      setSpots(
        found.flatMap(({ key, section, element }) => {
          const { top, left, width, height } = element.getBoundingClientRect();
          const said = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
          // A text a marketer can point at, not one only a screen reader hears (a visually
          // hidden "(opens in a new tab)", a pixel wide): that one is edited in its field.
          const seen = width >= SEEN_PX && height >= SEEN_PX;
          return seen ? [{ key, section, top, left, width, height, said }] : [];
        }),
      );
    measure();
    view.addEventListener('scroll', measure, { passive: true });
    view.addEventListener('resize', measure);
    return () => {
      view.removeEventListener('scroll', measure);
      view.removeEventListener('resize', measure);
    };
  }, [frame, loads]);
  return spots;
}

export function InPlaceTexts(props: InPlaceProps) {
  const { frame, loads } = props;
  const { catalogue, screen, language, drawn } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: what the texts are made of, not the props object.
  const targets = useMemo(() => targetsOf(props), [catalogue, screen, language, drawn]);
  const spots = useSpots(frame, loads, targets);
  const [editing, setEditing] = useState<number | null>(null);
  const spot = editing === null ? undefined : spots[editing];
  const close = (index: number) => {
    setEditing(null);
    requestAnimationFrame(() => document.getElementById(`in-place-${index}`)?.focus());
  };
  return (
    <fieldset
      className="in-place"
      // The buttons cover the page: a wheel over one scrolls the page under it.
      onWheel={(event) => frame.contentWindow?.scrollBy(event.deltaX, event.deltaY)}
    >
      <legend className="visually-hidden">Texts of the preview, each editable in place</legend>
      {spots.map((each, index) => (
        <button
          // biome-ignore lint/suspicious/noArrayIndexKey: a text's place on the page is its identity.
          key={`${each.key}:${index}`}
          id={`in-place-${index}`}
          type="button"
          className="in-place__text"
          style={{ top: each.top, left: each.left, width: each.width, height: each.height }}
          aria-label={`Edit in place: ${sectionName(each.section)}, “${each.said}”`}
          onClick={() => setEditing(index)}
        />
      ))}
      {spot && editing !== null ? (
        <InPlaceEditor
          {...props}
          spot={spot}
          text={targets.find((target) => target.key === spot.key)?.text ?? spot.said}
          onClose={() => close(editing)}
        />
      ) : null}
    </fieldset>
  );
}
