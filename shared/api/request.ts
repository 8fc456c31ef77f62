import type { ApiErrorBody } from './contract';

/**
 * Why a call failed:
 * - `http`: the server answered with a non-2xx status (its parsed body, if any, is kept);
 * - `network`: no answer at all (offline, refused, aborted, timed out);
 * - `parse`: a 2xx answer that is not JSON;
 * - `shape`: JSON that is not the answer the call expects (not an object, or without its fields).
 */
export type ApiFailureKind = 'http' | 'network' | 'parse' | 'shape';

/** SPEC.md §7: the request helper rejects with the parsed body when the response is not ok. */
export class ApiFailure extends Error {
  constructor(
    readonly kind: ApiFailureKind,
    /** HTTP status, or null when there was no answer. */
    readonly status: number | null,
    /** The parsed JSON body of the answer, or null when there was none or it was not JSON. */
    readonly body: unknown,
  ) {
    super(`${kind}${status === null ? '' : ` ${status}`}`);
    this.name = 'ApiFailure';
  }

  /** The body, when it carries the §7 error shape (errorBodyOf). */
  get errorBody(): ApiErrorBody | null {
    return errorBodyOf(this.body);
  }

  /** `errors.messages` of the body, when it carries the §7 error shape. */
  get messages(): string[] {
    return this.errorBody?.errors.messages ?? [];
  }

  /** Our stable `code` of the body (e.g. 'rate_limited', 'portal_unavailable'), when present. */
  get code(): string | null {
    return this.errorBody?.code ?? null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A failed answer's body as the §7 error shape, or null when it is not one (a proxy's page, a
 * body of another shape). Only `errors.messages` is looked at: every error body the worker sends
 * was built from the contract's ApiErrorBody or checked against it
 * (worker/portal-client/portal-call.ts), so the browser does not parse it again with zod, which
 * it would otherwise have to load.
 */
function errorBodyOf(body: unknown): ApiErrorBody | null {
  if (!isRecord(body) || !isRecord(body.errors)) return null;
  const { messages } = body.errors;
  const readable = Array.isArray(messages) && messages.every((m) => typeof m === 'string');
  return readable ? (body as ApiErrorBody) : null;
}

/**
 * The check a call's successful answer must pass before an island reads it: that it is a JSON
 * object, with each of `fields` an object (or, where named, null). The worker has already checked
 * the answer against the contract and re-serialised it (worker/portal-client/portal-call.ts);
 * this only keeps an answer that is not the worker's (a proxy's JSON, an empty object) from
 * reaching code that would read into it.
 */
export function hasObjectFields(value: unknown, fields: readonly string[]): boolean {
  if (!isRecord(value)) return false;
  return fields.every((path) => {
    let at: unknown = value;
    for (const key of path.split('.')) {
      if (!isRecord(at)) return false;
      at = at[key];
    }
    return isRecord(at);
  });
}

export interface ApiRequestOptions {
  /** JSON body; its presence makes the call a POST (SPEC.md §7). */
  body?: unknown;
  /**
   * The object fields a successful answer must have (hasObjectFields), e.g. `['data']`; without
   * them the parsed JSON is returned as is.
   */
  expects?: readonly string[];
  headers?: Record<string, string>;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

async function readJson(response: Response): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const text = await response.text();
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The shared request helper of SPEC.md §7: sends JSON, uses POST when a body is present and GET
 * otherwise, resolves with the parsed answer (given `expects`, checked to have those fields), and rejects with
 * an ApiFailure carrying the parsed body when the response is not ok.
 */
export async function apiRequest<T = unknown>(
  url: string,
  options: ApiRequestOptions = {},
): Promise<{ status: number; data: T }> {
  const hasBody = options.body !== undefined;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: hasBody ? 'POST' : 'GET',
      headers: {
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch {
    throw new ApiFailure('network', null, null);
  }
  let parsed: Awaited<ReturnType<typeof readJson>>;
  try {
    parsed = await readJson(response);
  } catch {
    // The connection dropped while the body was streaming.
    throw new ApiFailure('network', response.status, null);
  }
  if (!response.ok) throw new ApiFailure('http', response.status, parsed.ok ? parsed.value : null);
  if (!parsed.ok) throw new ApiFailure('parse', response.status, null);
  if (options.expects && !hasObjectFields(parsed.value, options.expects)) {
    throw new ApiFailure('shape', response.status, parsed.value);
  }
  return { status: response.status, data: parsed.value as T };
}
