import type { EncodedBody, RenderedBody } from './render-page';

/**
 * Screen bodies rendered once and served again, per isolate: rendering was about half of the
 * worker's CPU for a landing on workerd (docs/performance.md, "Screen bodies rendered once").
 *
 * What makes a body is its key: the screen's own props and what the page chrome reads (language's
 * translator, consent, ad tools). The two values in those props that belong to one visitor, the
 * query string and the visitor uuid, stand in the render as slot tokens, and each answer puts its
 * own values in their place. The query string sits in attributes, plain (a form's action) or as
 * JSON (an island's props); both read the same once HTML-escaped when JSON would not escape any
 * of its characters, so only such a query string is slotted, and any other is rendered fresh.
 * The tokens are private-use characters: URLs carry none (the URL parser percent-encodes them),
 * and neither escape changes them.
 *
 * test/worker/render/rendered-screens.test.ts holds a served body byte for byte to a fresh
 * render of the same request, on every screen; test/worker/render/two-visitors.test.ts keeps
 * each visitor's data to their own pages.
 */

/**
 * Where the visitor's query string goes (`?a=1&b=2`, or nothing). It begins with `?` as a query
 * string does, so a screen that finds the query in a URL by its `?` (the searching screen's way
 * back, a checkout's outcome pages) finds the slot, and the slot is filled whole.
 */
export const SEARCH_SLOT = '?\uE000search\uE001';
/** Where the visitor uuid goes. */
export const VISITOR_SLOT = '\uE000visitor\uE001';

/** The visitor's values a slotted body is filled with. */
export interface SlotValues {
  search: string;
  visitorId: string;
}

/** JSON keeps it as it is: no quote, backslash, control character or lone surrogate. */
function readsTheSameInJson(value: string): boolean {
  return JSON.stringify(value) === `"${value}"`;
}

/** A query string that reads the same in every place a body holds it: see above. */
export function isSlottable(values: SlotValues): boolean {
  return readsTheSameInJson(values.search) && readsTheSameInJson(values.visitorId);
}

/** React's escape for text and attribute values (react-dom/server's escapeTextForBrowser). */
const HTML_ESCAPES: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#x27;',
  '<': '&lt;',
  '>': '&gt;',
};

function escapeHtml(value: string): string {
  return value.replace(/["&'<>]/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** A kept body as bytes: its text between the slots, encoded once, and which slot follows each. */
interface EncodedSlots {
  between: Uint8Array[];
  slots: (keyof SlotValues)[];
}

const SLOT_NAMES: Record<string, keyof SlotValues> = {
  [SEARCH_SLOT]: 'search',
  [VISITOR_SLOT]: 'visitorId',
};
const ANY_SLOT = new RegExp(
  `(${Object.keys(SLOT_NAMES)
    .map((slot) => slot.replace('?', '\\?'))
    .join('|')})`,
);

/** Per kept body (a body dropped from RenderedScreens takes its bytes with it). */
const encodedSlots = new WeakMap<RenderedBody, EncodedSlots>();
const encoder = new TextEncoder();

function encodedSlotsOf(body: RenderedBody): EncodedSlots {
  const kept = encodedSlots.get(body);
  if (kept) return kept;
  const encoded: EncodedSlots = { between: [], slots: [] };
  // split() with a capturing group: text, slot, text, slot, ..., text.
  body.html.split(ANY_SLOT).forEach((part, index) => {
    if (index % 2 === 0) encoded.between.push(encoder.encode(part));
    else encoded.slots.push(SLOT_NAMES[part] as keyof SlotValues);
  });
  encodedSlots.set(body, encoded);
  return encoded;
}

/**
 * A slotted body with one visitor's values in place, as the bytes the page sends. Only the
 * values are encoded for this answer: encoding the whole page on every request was the largest
 * part of the worker's CPU for a landing (docs/performance.md, "A page's CPU on the server").
 */
export function fillSlots(body: RenderedBody, values: SlotValues): EncodedBody {
  const { between, slots } = encodedSlotsOf(body);
  const bytes: Uint8Array[] = [];
  between.forEach((text, index) => {
    bytes.push(text);
    const slot = slots[index];
    if (slot) bytes.push(encoder.encode(escapeHtml(values[slot])));
  });
  return { bytes, islands: body.islands };
}

/** A number per translator object: a KV override's new translator makes new keys. */
const translatorIds = new WeakMap<object, number>();
let lastTranslatorId = 0;

export function translatorId(translator: object): number {
  let id = translatorIds.get(translator);
  if (id === undefined) {
    lastTranslatorId += 1;
    id = lastTranslatorId;
    translatorIds.set(translator, id);
  }
  return id;
}

/**
 * The key of everything a body is rendered from. Functions (the translator) do not survive
 * JSON: pass the translator's id beside them.
 */
export function bodyKey(inputs: Record<string, unknown>): string {
  return JSON.stringify(inputs);
}

/**
 * The most recently used bodies, at most `capacity` of them (a landing's is about 30 KB). Only a
 * finished body is kept: two requests that miss at once each render their own, as a request
 * never awaits another's work (workerd ties I/O to the request that began it, as in
 * worker/config/load.ts). A body that failed to render is not kept.
 */
export class RenderedScreens {
  private readonly bodies = new Map<string, RenderedBody>();

  constructor(private readonly capacity: number) {}

  async body(key: string, render: () => Promise<RenderedBody>): Promise<RenderedBody> {
    const kept = this.bodies.get(key);
    if (kept) {
      // Most recently used last: a Map keeps insertion order.
      this.bodies.delete(key);
      this.bodies.set(key, kept);
      return kept;
    }
    const rendered = await render();
    this.bodies.set(key, rendered);
    for (const oldest of this.bodies.keys()) {
      if (this.bodies.size <= this.capacity) break;
      this.bodies.delete(oldest);
    }
    return rendered;
  }

  get size(): number {
    return this.bodies.size;
  }
}
