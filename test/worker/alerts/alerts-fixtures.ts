import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { ExperimentResultsAnswer } from '../../../shared/console-api/experiment-results';
import { DEVELOPMENT_AUTHOR_COOKIE } from '../../../worker/access/console-access';
import type { ResultsReader } from '../../../worker/alerts/run-alerts';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import type { FunnelConfig } from '../../../worker/config/load';
import type { Bindings } from '../../../worker/env';
import { STARTED_AT } from '../../fixtures/experiment-results-answer';

/**
 * The alerts against the real CONFIG_DB in workerd; only the webhook, which is on the internet,
 * is a mock of `fetch` for its address.
 */

export const WEBHOOK = 'https://hooks.example.com/services/T000/B000/XXXX';
export const SECRET = 'alerts-test-secret';
/** Two days after the experiments started: past the no-exposures day. */
export const NOW = Date.parse(STARTED_AT) + 2 * 24 * 60 * 60 * 1000;
export const MINUTE = 60_000;

/** The production worker's bindings with the alerts configured. */
export const ALERTS_ENV: Bindings = {
  ...env,
  ENVIRONMENT: 'production',
  ALERTS_HMAC_KEY: SECRET,
  CONSOLE_URL: 'https://funnel.example.com/console',
};

export function configWith(
  experiments: Record<string, ExperimentDocument>,
  /** Null: none set. */
  webhook: string | null = WEBHOOK,
): FunnelConfig {
  return {
    split: DEFAULT_SPLIT,
    flows: DEFAULT_FLOWS,
    routing: DEFAULT_ROUTING,
    experiments: {
      version: 'v1',
      experiments,
      ...(webhook === null ? {} : { alerts: { webhook } }),
    },
    content: EMPTY_CONTENT,
    version: 'v1+v1',
  };
}

/** Answers each experiment's results from `answers`; none for an id it lacks. */
export function readerOf(answers: Record<string, ExperimentResultsAnswer>): ResultsReader {
  return async (_config, id) => answers[id] ?? null;
}

export interface Post {
  url: string;
  headers: Headers;
  body: string;
}

/**
 * The webhook, answering each post with the next of `answers` (a status, or 'network' for no
 * answer), the last one again once they run out; and every log line, parsed. Each test starts
 * with no alert claimed.
 */
export function webhookAndLogs() {
  const posts: Post[] = [];
  let answers: (number | 'network')[] = [200];
  let fetchSpy: MockInstance<typeof fetch>;
  const lines: Record<string, unknown>[] = [];
  beforeEach(async () => {
    await env.CONFIG_DB.prepare('DELETE FROM alert_deliveries').run();
    posts.length = 0;
    lines.length = 0;
    answers = [200];
    fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.startsWith('https://hooks.example.com/'))
        throw new Error(`unexpected fetch ${request.url}`);
      posts.push({ url: request.url, headers: request.headers, body: await request.text() });
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer === 'network') throw new TypeError('Network connection lost.');
      const body = answer === 204 ? null : answer >= 400 ? 'invalid_payload' : 'ok';
      return new Response(body, { status: answer });
    });
    for (const method of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, method).mockImplementation((text: unknown) => {
        lines.push(JSON.parse(String(text)) as Record<string, unknown>);
      });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return {
    posts,
    lines,
    answer: (...next: (number | 'network')[]) => {
      answers = next;
    },
    fetchSpy: () => fetchSpy,
    /** The log lines with this event, warning or error code. */
    coded: (code: string) =>
      lines.filter((line) => line.event === code || line.warning === code || line.error === code),
  };
}

export async function deliveryRows() {
  const { results } = await env.CONFIG_DB.prepare(
    'SELECT key, state, attempts, next_attempt_at, last_status FROM alert_deliveries ORDER BY key',
  ).all();
  return results;
}

/**
 * A console write from the console's own page as `email` (the development console's author
 * cookie): `headers` override the page's, as another site's post would.
 */
export function consolePost(
  fetchApp: (path: string, init?: RequestInit) => Promise<Response>,
  path: string,
  email: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetchApp(path, {
    method: 'POST',
    headers: {
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
      Cookie: `${DEVELOPMENT_AUTHOR_COOKIE}=${email}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}
