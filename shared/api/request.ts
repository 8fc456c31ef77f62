import type { z } from 'zod';
import { ApiErrorBody } from './contract';

/**
 * Why a call failed:
 * - `http`: the server answered with a non-2xx status (its parsed body, if any, is kept);
 * - `network`: no answer at all (offline, refused, aborted, timed out);
 * - `parse`: a 2xx answer that is not JSON;
 * - `shape`: JSON that does not match the contract.
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

  /** `errors.messages` of the body, when it carries the §7 error shape. */
  get messages(): string[] {
    const parsed = ApiErrorBody.safeParse(this.body);
    return parsed.success ? parsed.data.errors.messages : [];
  }

  /** Our stable `code` of the body (e.g. 'rate_limited', 'portal_unavailable'), when present. */
  get code(): string | null {
    const parsed = ApiErrorBody.safeParse(this.body);
    return parsed.success ? (parsed.data.code ?? null) : null;
  }
}

export interface ApiRequestOptions<T> {
  /** JSON body; its presence makes the call a POST (SPEC.md §7). */
  body?: unknown;
  /** The contract shape of a successful answer; without it the parsed JSON is returned as is. */
  schema?: z.ZodType<T>;
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
 * otherwise, resolves with the parsed (and, given a schema, validated) answer, and rejects with
 * an ApiFailure carrying the parsed body when the response is not ok.
 */
export async function apiRequest<T = unknown>(
  url: string,
  options: ApiRequestOptions<T> = {},
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
  if (!options.schema) return { status: response.status, data: parsed.value as T };
  const checked = options.schema.safeParse(parsed.value);
  if (!checked.success) throw new ApiFailure('shape', response.status, parsed.value);
  return { status: response.status, data: checked.data };
}
