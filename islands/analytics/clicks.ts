import { emit } from './emit';

/** What a click event says about the control that was clicked. */
export interface ClickProperties {
  element_id: string;
  element_tag: string;
  element_role: string;
  /** Its accessible name, whitespace collapsed, at most TEXT_MAX characters. */
  element_text: string;
  /** A link's destination path, without its query (which may carry click ids). */
  link_path?: string;
  /**
   * The generic event the control stands for, from its `data-event` attribute (SPEC.md §4:
   * `button__scroll` for a button that moves the view, `option__redirect` for an option that
   * moves on); page-events.ts admits only those two.
   */
  element_event?: string;
}

/**
 * Only controls are described: a click on plain text is not a funnel step, and text (the number
 * being located, an email) is no business of analytics. A field's value is never read.
 */
const CONTROLS =
  'a[href],button,input,select,textarea,summary,[role=button],[role=link],[role=option],[role=radio],[role=checkbox],[role=tab],[role=switch]';
const TEXT_MAX = 100;

/** The attribute a control carries to name the generic event its click is (see element_event). */
const CLICK_EVENT_ATTR = 'data-event';

const IMPLICIT_ROLE: Record<string, string> = {
  a: 'link',
  button: 'button',
  select: 'combobox',
  textarea: 'textbox',
  summary: 'button',
};

function inputRole(input: HTMLInputElement): string {
  const type = input.type;
  if (type === 'checkbox' || type === 'radio') return type;
  return type === 'submit' || type === 'button' ? 'button' : 'textbox';
}

/** The clicked control's description, or null when the click was not on a control. */
function describeClick(target: EventTarget | null): ClickProperties | null {
  const element = target instanceof Element ? target.closest(CONTROLS) : null;
  if (!element) return null;
  const tag = element.tagName.toLowerCase();
  const field = element instanceof HTMLInputElement || tag === 'select' || tag === 'textarea';
  const label = field ? (element as HTMLInputElement).labels?.[0]?.textContent : null;
  const text = element.getAttribute('aria-label') ?? (field ? label : element.textContent) ?? '';
  const click: ClickProperties = {
    element_id: element.id,
    element_tag: tag,
    element_role:
      element.getAttribute('role') ??
      (element instanceof HTMLInputElement ? inputRole(element) : (IMPLICIT_ROLE[tag] ?? '')),
    element_text: text.replace(/\s+/g, ' ').trim().slice(0, TEXT_MAX),
  };
  if (element instanceof HTMLAnchorElement) click.link_path = element.pathname;
  const marked = element.getAttribute(CLICK_EVENT_ATTR);
  if (marked) click.element_event = marked;
  return click;
}

/** Reports every click on a control, from the first moment of the page (capture: before islands act). */
export function listenForClicks(doc: Document = document): void {
  doc.addEventListener(
    'click',
    (event) => {
      try {
        const click = describeClick(event.target);
        if (click) emit('click', { ...click });
      } catch (error) {
        console.warn('[analytics]', error);
      }
    },
    { capture: true },
  );
}
