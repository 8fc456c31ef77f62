/** The fetch the consumer's destinations use; tests hand in a fake endpoint. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** What an HTTP destination answered, or that it could not be reached. */
export type Reply =
  | { reached: true; status: number; json: unknown; text: string }
  | { reached: false; detail: string };

/** A destination that takes this long is treated as down; the message is retried later. */
const CALL_TIMEOUT_MS = 15_000;
/** Enough of an answer to see why it refused, not a whole page in the log. */
const REPLY_TEXT_LIMIT = 300;

export async function postJson(
  fetch: Fetch,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): the status decides.
    }
    return { reached: true, status: response.status, json, text: text.slice(0, REPLY_TEXT_LIMIT) };
  } catch (error) {
    return { reached: false, detail: String(error).slice(0, REPLY_TEXT_LIMIT) };
  }
}

/** Throttled or failing on their side: worth another try later. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}
