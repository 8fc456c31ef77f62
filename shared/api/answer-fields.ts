/**
 * Reading an answer of the product API as tolerantly as the funnel can afford. SPEC.md §3 and §7
 * name the fields the funnel reads but rarely their types, so a real API may send `1` for
 * `true`, a number for an id, null for a field it leaves out. Each field of an answer is either
 * required (the step cannot go on without it: the answer is refused) or optional with a
 * fallback (what the browser gets without it). Whatever was taken in another form than the
 * contract's is noted as drift, by the field's path and the kind of thing found, never its value,
 * so ops see that the API differs from our guess without visitors seeing anything.
 *
 * The readers here are generic; each call's fields and rules are in ./portal-answers.ts.
 */

/** One field taken in another form than the contract's: where, and what was there. */
export interface ShapeDrift {
  /** The field's path in the answer, e.g. 'data.entity.external_user_id'. */
  field: string;
  /** The JSON kind found ('missing', 'null', 'number', …), with a reason when the kind was right. */
  found: string;
}

/** What reading a whole answer came to. */
export type AnswerReading<T> =
  | { ok: true; value: T; drift: ShapeDrift[] }
  /** `missing`: the path of the required field that was absent or unusable. */
  | { ok: false; missing: string; drift: ShapeDrift[] };

/** A value in the contract's form, or taken in another (`found` says which). */
type Accepted<T> = { value: T; found?: string };

/**
 * Takes a present, non-null value: its contract form (no `found`), another form it can use
 * (with `found`), or null when it cannot be used.
 */
export type Accept<T> = (raw: unknown) => Accepted<T> | null;

/** What a reading carries along: the drift so far, and facts of the request (the looked-up number). */
export interface Reading {
  drift: ShapeDrift[];
  missing: string | null;
  context: AnswerContext;
}

/** What the worker knows of the request an answer is for. */
export type AnswerContext = Readonly<Record<string, string>>;

/** The rule of one field, for the docs' table and its test. */
export interface FieldRule {
  path: string;
  rule: 'required' | 'optional';
}

/** One field (or object of fields) of an answer. */
export interface Field<T> {
  readonly required: boolean;
  /** The value to use; on a required field that is unusable, records it and returns undefined. */
  take(raw: unknown, path: string, reading: Reading): T;
  /** The rules of this field and of every field inside it. */
  rules(path: string): FieldRule[];
}

/** The JSON kind of a value, as a drift note names it. */
export function kindOf(raw: unknown): string {
  if (raw === undefined) return 'missing';
  if (raw === null) return 'null';
  if (Array.isArray(raw)) return 'array';
  return typeof raw;
}

function isRecord(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** A field the step cannot go on without: absent, null or unusable, the answer is refused. */
export function required<T>(accept: Accept<T>): Field<T> {
  return {
    required: true,
    take(raw, path, reading) {
      const accepted = raw === undefined || raw === null ? null : accept(raw);
      if (!accepted) {
        reading.missing ??= path;
        return undefined as T;
      }
      if (accepted.found) reading.drift.push({ field: path, found: accepted.found });
      return accepted.value;
    },
    rules: (path) => [{ path, rule: 'required' }],
  };
}

export interface OptionalForms {
  /** The contract itself may leave the field out (no drift when absent). */
  absent?: boolean;
  /** The contract itself may send null (no drift when null). */
  null?: boolean;
}

/**
 * A field the funnel can do without: absent, null or unusable, `fallback` is used (a function
 * of the request's context where the worker knows better, as the looked-up number).
 */
export function optional<T>(
  accept: Accept<T>,
  fallback: T | ((context: AnswerContext) => T),
  forms: OptionalForms = {},
): Field<T> {
  const fallbackOf = (reading: Reading): T =>
    typeof fallback === 'function'
      ? (fallback as (context: AnswerContext) => T)(reading.context)
      : fallback;
  return {
    required: false,
    take(raw, path, reading) {
      const quiet = (raw === undefined && forms.absent) || (raw === null && forms.null);
      const accepted = raw === undefined || raw === null ? null : accept(raw);
      if (!accepted) {
        if (!quiet) {
          const found = raw === undefined || raw === null ? kindOf(raw) : unusable(raw);
          reading.drift.push({ field: path, found });
        }
        return fallbackOf(reading);
      }
      if (accepted.found) reading.drift.push({ field: path, found: accepted.found });
      return accepted.value;
    },
    rules: (path) => [{ path, rule: 'optional' }],
  };
}

/**
 * A field whose value the worker knows from the request itself (the number it looked up): that
 * value is used, and an answer that says otherwise is drift.
 */
export function requestValue(key: string): Field<string> {
  return {
    required: false,
    take(raw, path, reading) {
      const asked = reading.context[key] ?? '';
      if (raw !== asked) {
        const found = typeof raw === 'string' ? 'string (another form)' : kindOf(raw);
        reading.drift.push({ field: path, found });
      }
      return asked;
    },
    rules: (path) => [{ path, rule: 'optional' }],
  };
}

function unusable(raw: unknown): string {
  return `${kindOf(raw)} (unusable)`;
}

type Fields = Record<string, Field<unknown>>;
type ValuesOf<F extends Fields> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

/**
 * An object of fields. It is required when one of its fields is (an answer without it cannot
 * have them) or when `rule` says so (an answer without it answers nothing); otherwise an absent
 * object reads as one whose fields are all absent. Keys it does not name are dropped: the answer
 * the browser gets is rebuilt from what was read, so nothing the contract does not name reaches
 * page JavaScript.
 */
export function object<F extends Fields>(fields: F, rule?: 'required'): Field<ValuesOf<F>> {
  const isRequired = rule === 'required' || Object.values(fields).some((field) => field.required);
  return {
    required: isRequired,
    take(raw, path, reading) {
      if (!isRecord(raw) && isRequired) {
        reading.missing ??= path;
        return undefined as unknown as ValuesOf<F>;
      }
      // An optional object that is not there is one note, not one per field: its fields take
      // their fallbacks quietly (none of them is required, so nothing can be missing).
      let into = reading;
      if (!isRecord(raw)) {
        reading.drift.push({ field: path, found: kindOf(raw) });
        into = { ...reading, drift: [] };
      }
      const source = isRecord(raw) ? raw : {};
      const value: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(fields)) {
        // Own fields only: never one an object inherits (`__proto__`'s, say).
        const raw = Object.hasOwn(source, key) ? source[key] : undefined;
        value[key] = field.take(raw, join(path, key), into);
      }
      return value as ValuesOf<F>;
    },
    rules: (path) => [
      ...(path ? [{ path, rule: isRequired ? ('required' as const) : ('optional' as const) }] : []),
      ...fieldRules(fields, path),
    ],
  };
}

/**
 * An object that may be absent or null as a whole (the polling result while the charge is
 * pending): null then, and its fields' rules apply only when it is there.
 */
export function nullableObject<F extends Fields>(fields: F): Field<ValuesOf<F> | null> {
  const inner = object(fields);
  return {
    required: false,
    take(raw, path, reading) {
      if (raw === undefined || raw === null) return null;
      if (!isRecord(raw)) {
        reading.drift.push({ field: path, found: kindOf(raw) });
        return null;
      }
      return inner.take(raw, path, reading);
    },
    rules: (path) => [{ path, rule: 'optional' }, ...fieldRules(fields, path)],
  };
}

/** How a list of objects may come, beyond a list: what the contract itself lets it be. */
export interface ListForms extends OptionalForms {
  /** The most entries read; the rest are dropped, and that is drift. */
  limit: number;
}

/**
 * A list of objects of `fields` (the add-ons a subscription's read names): absent, null or no
 * list at all, an empty one. Each entry is read as an object of its own, so one entry that is no
 * object, or lacks a field its rules require, is dropped and noted as drift, and the rest are
 * kept: a product API's one odd entry costs the page that entry, not the list. Entries' drift
 * is noted under `<path>[]`, one name however many entries share it.
 */
export function listOf<F extends Fields>(fields: F, forms: ListForms): Field<ValuesOf<F>[]> {
  const entry = object(fields, 'required');
  return {
    required: false,
    take(raw, path, reading) {
      if (raw === undefined || raw === null || !Array.isArray(raw)) {
        const quiet = (raw === undefined && forms.absent) || (raw === null && forms.null);
        if (!quiet) reading.drift.push({ field: path, found: kindOf(raw) });
        return [];
      }
      const kept: ValuesOf<F>[] = [];
      for (const listed of raw.slice(0, forms.limit)) {
        const own: Reading = { drift: [], missing: null, context: reading.context };
        const value = entry.take(listed, `${path}[]`, own);
        reading.drift.push(...own.drift);
        if (own.missing === null) kept.push(value);
        else reading.drift.push({ field: own.missing, found: droppedFor(listed, own.missing) });
      }
      if (raw.length > forms.limit) {
        reading.drift.push({ field: path, found: `array (over ${forms.limit}, rest dropped)` });
      }
      return kept;
    },
    rules: (path) => [{ path, rule: 'optional' }, ...fieldRules(fields, `${path}[]`)],
  };
}

/** What made a list's entry unusable: the kind its missing field held, or the entry's own. */
function droppedFor(listed: unknown, missing: string): string {
  if (!isRecord(listed)) return `${kindOf(listed)} (entry dropped)`;
  const key = missing.slice(missing.lastIndexOf('.') + 1);
  const held = Object.hasOwn(listed, key) ? listed[key] : undefined;
  const kind = held === undefined || held === null ? kindOf(held) : unusable(held);
  return `${kind} (entry dropped)`;
}

function fieldRules(fields: Fields, path: string): FieldRule[] {
  return Object.entries(fields).flatMap(([key, field]) => field.rules(join(path, key)));
}

/**
 * Reads a whole answer. Its body must be a JSON object whatever its fields' rules: a list, a
 * text or a number is no answer of the call at all.
 */
export function readAnswer<T>(
  shape: Field<T>,
  body: unknown,
  context: AnswerContext = {},
): AnswerReading<T> {
  if (!isRecord(body)) return { ok: false, missing: '(body)', drift: [] };
  const reading: Reading = { drift: [], missing: null, context };
  const value = shape.take(body, '', reading);
  return reading.missing === null
    ? { ok: true, value, drift: reading.drift }
    : { ok: false, missing: reading.missing, drift: reading.drift };
}

// --- What a field may hold ------------------------------------------------------------------

/** Text; a finite number is taken as its decimal text (ids a real API sends as numbers). */
export const text: Accept<string> = (raw) => {
  if (typeof raw === 'string') return { value: raw };
  if (typeof raw === 'number' && Number.isFinite(raw))
    return { value: String(raw), found: 'number' };
  return null;
};

/** Text that is not empty after trimming (a token, an id the next call carries). */
export const nonEmptyText: Accept<string> = (raw) => {
  const taken = text(raw);
  return taken && taken.value.trim() !== '' ? taken : null;
};

const TRUE_WORDS = new Set(['1', 'true', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'no']);

/** A yes or no: a boolean, or 1/0, "1"/"0", "true"/"false" as APIs in other languages send it. */
export const flag: Accept<boolean> = (raw) => {
  if (typeof raw === 'boolean') return { value: raw };
  if (raw === 1 || raw === 0) return { value: raw === 1, found: 'number' };
  if (typeof raw === 'string') {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return { value: true, found: 'string' };
    if (FALSE_WORDS.has(word)) return { value: false, found: 'string' };
  }
  return null;
};

/**
 * A time: ISO 8601 text from its date on (`2026-12-28T10:00:00Z`), as it came; a number is taken
 * as Unix seconds (Stripe's times) and given as ISO 8601. Text of another form is unusable.
 */
export const isoTime: Accept<string> = (raw) => {
  if (typeof raw === 'number' && Number.isFinite(raw)) {
    const at = new Date(raw * 1000);
    return Number.isNaN(at.getTime()) ? null : { value: at.toISOString(), found: 'number' };
  }
  if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(raw)) return null;
  return Number.isFinite(Date.parse(raw)) ? { value: raw } : null;
};

/** An amount: a finite number, or a decimal in text ("6.99"). */
export const amount: Accept<number> = (raw) => {
  if (typeof raw === 'number') return Number.isFinite(raw) ? { value: raw } : null;
  if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) {
    return { value: Number(raw), found: 'string' };
  }
  return null;
};

/** A number, or the text of one, as it came: what a 3-D Secure verification is run for. */
export const amountOrText: Accept<number | string> = (raw) => {
  if (typeof raw === 'number') return Number.isFinite(raw) ? { value: raw } : null;
  if (typeof raw === 'string' && raw.trim() !== '') return { value: raw };
  return null;
};

/** One of `values`, in any letter case; another word is unusable. */
export function oneOf<const V extends string>(values: readonly V[]): Accept<V> {
  return (raw) => {
    if (typeof raw !== 'string') return null;
    const word = raw.trim().toLowerCase();
    const known = values.find((value) => value === word);
    if (known === undefined) return null;
    return known === raw ? { value: known } : { value: known, found: 'string (letter case)' };
  };
}

/** Text in lower case (a status word the funnel compares: 'succeeded', 'requires_action'). */
export const lowerCaseWord: Accept<string> = (raw) => {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  const word = raw.trim().toLowerCase();
  return word === raw ? { value: word } : { value: word, found: 'string (letter case)' };
};

/** An ISO 3166 alpha-2 country code, upper case. */
export const countryCode: Accept<string> = (raw) => {
  if (typeof raw !== 'string' || !/^[A-Za-z]{2}$/.test(raw.trim())) return null;
  const code = raw.trim().toUpperCase();
  return code === raw ? { value: code } : { value: code, found: 'string (letter case)' };
};

/** A list of texts; a single text is a list of one, and entries that are not text are dropped. */
export function texts(limit: number, maxLength: number): Accept<string[]> {
  return (raw) => {
    // A copy: the list is read, never the answer's own array and whatever it may carry.
    const listed: unknown[] = Array.isArray(raw) ? [...raw] : [raw];
    const kept = listed
      .filter((entry): entry is string => typeof entry === 'string')
      .slice(0, limit)
      .map((entry) => entry.slice(0, maxLength));
    if (kept.length === 0 && listed.length > 0) return null;
    const same =
      Array.isArray(raw) && kept.length === raw.length && kept.every((t, i) => t === raw[i]);
    return same ? { value: kept } : { value: kept, found: kindOf(raw) };
  };
}

/** Takes the value as it is, whatever it is (a field the funnel hands on without reading). */
export const anything: Accept<unknown> = (raw) => ({ value: raw });
