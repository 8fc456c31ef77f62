import type { Fetch } from '../../../worker/collector/consumer/post-json';

export interface SeenRequest {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

type Answer = Response | Error;

/**
 * Stands in for Amplitude, Meta and TikTok: records every request and answers with what
 * `answer` returns for it (a Response, or an Error for a network failure). No test reaches the
 * internet: the consumer's fetch is this.
 */
export function fakeEndpoint(
  answer: (request: SeenRequest, index: number) => Answer = () => json(200, {}),
) {
  const seen: SeenRequest[] = [];
  const fetch: Fetch = async (url, init) => {
    const request: SeenRequest = {
      url,
      headers: new Headers(init.headers),
      body: JSON.parse(String(init.body)) as Record<string, unknown>,
    };
    seen.push(request);
    const reply = answer(request, seen.length - 1);
    if (reply instanceof Error) throw reply;
    return reply;
  };
  return {
    fetch,
    seen,
    to: (host: string) => seen.filter((request) => new URL(request.url).host === host),
  };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export const META_HOST = 'graph.facebook.com';
export const TIKTOK_HOST = 'business-api.tiktok.com';

/** A fake answering each host as real success looks (TikTok: HTTP 200 with code 0). */
export function allAccept(request: SeenRequest): Response {
  const host = new URL(request.url).host;
  if (host === TIKTOK_HOST) return json(200, { code: 0, message: 'OK', data: {} });
  if (host === META_HOST) return json(200, { events_received: 1, fbtrace_id: 'trace' });
  return json(200, { code: 200, events_ingested: 1 });
}
