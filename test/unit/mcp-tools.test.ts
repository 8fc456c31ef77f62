import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parseMcpArgs } from '../../scripts/mcp/arguments';
import { type ApiAnswer, type ConsoleCall, consoleClient } from '../../scripts/mcp/console-client';
import { consoleMcpServer } from '../../scripts/mcp/server';

/**
 * The MCP server's tools over a stand-in of the console API: the request each tool makes of the
 * API, and how an answer comes back to the agent. test/unit/mcp-cli.test.ts runs the same server
 * as a process against the built worker.
 */

const TOKEN = `gft_${'a'.repeat(12)}_${'b'.repeat(40)}`;

interface Request {
  method: string;
  path: string;
  body?: unknown;
}

/** A client on a server whose API answers `answer` to every call, and the calls it got. */
async function connected(answer: (request: Request) => ApiAnswer = () => yes({ ok: true })) {
  const requests: Request[] = [];
  const call: ConsoleCall = async (method, path, body) => {
    const request = body === undefined ? { method, path } : { method, path, body };
    requests.push(request);
    return answer(request);
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await consoleMcpServer(call).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  const callTool = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { requests, callTool };
}

const yes = (body: unknown): ApiAnswer => ({ ok: true, status: 200, body });

const texts = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : part.type));

const DOCUMENT = { split: {}, flows: {}, routing: {}, experiments: {}, content: { screens: {} } };

describe('the MCP tools', () => {
  it('save the draft with the revision, base, document and paused weights the API takes', async () => {
    const { requests, callTool } = await connected();
    await callTool('draft_save', { revision: 2, base: 7, document: DOCUMENT });
    await callTool('request_approval', { revision: 3, note: 'New copy' });
    expect(requests).toEqual([
      {
        method: 'PUT',
        path: '/console/api/draft',
        body: { revision: 2, base: 7, document: DOCUMENT, pausedWeights: {} },
      },
      {
        method: 'POST',
        path: '/console/api/draft/review',
        body: { revision: 3, note: 'New copy' },
      },
    ]);
  });

  it('hand a note of any length to the API, which keeps its first 500 characters, as a person’s', async () => {
    const { requests, callTool } = await connected();
    const long = 'Why this copy: '.padEnd(700, 'x');
    const sent = await callTool('request_approval', { revision: 3, note: long });
    expect(sent.isError).toBeFalsy();
    expect(requests).toEqual([
      { method: 'POST', path: '/console/api/draft/review', body: { revision: 3, note: long } },
    ]);
  });

  it("read the split's results, or an experiment's with its phase and segment", async () => {
    const { requests, callTool } = await connected();
    await callTool('results');
    await callTool('results', { experiment: 'price-us', phase: 2, segment: 'country' });
    await callTool('results', { experiment: 'fl-quiz', segment: 'answer:who' });
    const refused = await callTool('results', { experiment: 'fl-quiz', segment: 'answer:Who!' });
    expect(refused.isError).toBe(true);
    expect(requests.map((request) => request.path)).toEqual([
      '/console/api/results',
      '/console/api/experiments/price-us/results?phase=2&segment=country',
      '/console/api/experiments/fl-quiz/results?segment=answer%3Awho',
    ]);
  });

  it('refuse arguments outside their schema without calling the API', async () => {
    const { requests, callTool } = await connected();
    const refused = await callTool('draft_save', { revision: -1, base: null, document: DOCUMENT });
    expect(refused.isError).toBe(true);
    expect(requests).toEqual([]);
  });

  it("answer an API refusal as a tool error: its code, status, what to do, and the API's JSON", async () => {
    const body = { ok: false, error: 'token_scope' };
    const { callTool } = await connected(() => ({
      ok: false,
      status: 403,
      error: 'token_scope',
      body,
    }));
    const refused = await callTool('draft_save', { revision: 0, base: null, document: DOCUMENT });
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toEqual([
      'token_scope (HTTP 403): the token lacks the scope this needs (read, content or traffic): ask a person for a token that has it, or leave this part of the document as it is',
      JSON.stringify(body),
    ]);
  });

  it('simulate a run as its start and then each batch, adding up what they wrote', async () => {
    const tally = { exposed: 600, purchase: 12 };
    const { requests, callTool } = await connected((request) =>
      request.path.endsWith('/start')
        ? yes({ experiment: 'split', phase: 1, visitors: 1500, batchSize: 1000, days: 7, now: 5 })
        : yes({ tallies: { lp1: tally } }),
    );
    const result = await callTool('simulate', { visitors: 1500, seed: 42 });
    expect(requests.map((request) => request.path)).toEqual([
      '/__dev/experiments/simulate/start',
      '/__dev/experiments/simulate/batch',
      '/__dev/experiments/simulate/batch',
    ]);
    expect(requests[2]?.body).toMatchObject({ experiment: 'split', seed: 42, batch: 1, now: 5 });
    expect(JSON.parse(texts(result)[0] ?? '')).toMatchObject({
      seed: 42,
      tallies: { lp1: { exposed: 1200, purchase: 24 } },
    });
  });

  it("say simulate needs npm start's worker where the simulator answers 404", async () => {
    const { callTool } = await connected(() => ({
      ok: false,
      status: 404,
      error: 'http_404',
      body: 'Not found',
    }));
    const refused = await callTool('simulate');
    expect(texts(refused)[0]).toMatch(
      /^not_development \(HTTP 404\): simulate runs only on npm start/,
    );
  });
});

describe('the console client', () => {
  const target = { origin: 'http://worker.test', token: TOKEN, access: null };

  it('sends the token as a bearer and no Origin, and reads a refusal into its code', async () => {
    let sent: Request | undefined;
    const fetcher = (async (url: URL, init: RequestInit) => {
      sent = { method: String(init.method), path: url.href, body: init.headers };
      return Response.json({ ok: false, error: 'token_not_allowed' }, { status: 403 });
    }) as unknown as typeof fetch;
    const answer = await consoleClient(target, fetcher)('POST', '/console/api/check', {});
    expect(sent).toEqual({
      method: 'POST',
      path: 'http://worker.test/console/api/check',
      body: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    });
    expect(answer).toEqual({
      ok: false,
      status: 403,
      error: 'token_not_allowed',
      body: { ok: false, error: 'token_not_allowed' },
    });
  });

  it('answers a worker that does not answer as unreachable, not a throw', async () => {
    const fetcher = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    const answer = await consoleClient(target, fetcher)('GET', '/console/api/state');
    expect(answer).toMatchObject({ ok: false, status: 0, error: 'unreachable' });
  });
});

describe('npm run mcp’s arguments', () => {
  const environment = { token: TOKEN, accessClientId: undefined, accessClientSecret: undefined };

  it('take the origin of --url and the token of the environment', () => {
    expect(parseMcpArgs(['--url', 'https://funnel.example/console'], environment)).toEqual({
      kind: 'run',
      target: { origin: 'https://funnel.example', token: TOKEN, access: null },
    });
  });

  it.each([
    [
      ['--url', 'funnel.example'],
      environment,
      `--url takes the worker's http(s) origin, not "funnel.example"`,
    ],
    [['--token', TOKEN], environment, "Unknown option '--token'"],
    [
      [],
      { ...environment, token: 'secret' },
      'GEOFUNNEL_TOKEN is not a console token (gft_ followed by 12 and 40 hex digits)',
    ],
    [
      [],
      { ...environment, accessClientId: 'id.access' },
      'GEOFUNNEL_ACCESS_CLIENT_ID and GEOFUNNEL_ACCESS_CLIENT_SECRET go together: set both, or neither',
    ],
  ])('refuse %j with a usage error', (argv, env, error) => {
    expect(parseMcpArgs(argv, env)).toEqual({ kind: 'usage-error', error });
  });
});
