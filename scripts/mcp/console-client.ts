import type { McpTarget } from './arguments';

/**
 * The worker's console API as the MCP server calls it: the token as a bearer (so the worker
 * treats the call as the token's, `token:<name>`, and lets it through without the browser's
 * same-origin headers), Cloudflare Access's service token headers where one is given, and every
 * answer read into a value, never a throw: a refusal is something the agent reads and acts on.
 */

/** How long a call may take before the agent is told the worker did not answer. */
const CALL_TIMEOUT_MS = 60_000;

/**
 * An answer: the API's JSON when it said yes; when it said no, its error code (the console's
 * `error`, e.g. `token_scope`), the HTTP status, and the JSON as it came, which may say more
 * (the fields refused, a conflict's changes). Status 0: nothing answered.
 */
export type ApiAnswer =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number; error: string; body: unknown };

export type ConsoleCall = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
) => Promise<ApiAnswer>;

export function consoleClient(target: McpTarget, fetcher: typeof fetch = fetch): ConsoleCall {
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
  if (target.access) {
    headers['cf-access-client-id'] = target.access.clientId;
    headers['cf-access-client-secret'] = target.access.clientSecret;
  }
  return async function callConsole(method, path, body) {
    let response: Response;
    try {
      response = await fetcher(new URL(path, target.origin), {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      return {
        ok: false,
        status: 0,
        error: timedOut ? 'timeout' : 'unreachable',
        body: { origin: target.origin, detail: (error as Error).message },
      };
    }
    return answerOf(response);
  };
}

async function answerOf(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a page in front of the worker (Access's sign-in, a proxy's error), kept as text.
  }
  const refused = !response.ok || (isRecord(body) && body.ok === false);
  if (!refused) return { ok: true, status: response.status, body };
  const code = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
  return { ok: false, status: response.status, error: code ?? `http_${response.status}`, body };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
