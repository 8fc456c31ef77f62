import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';
import { TSX } from './script-process';

/**
 * `npm run mcp` (scripts/mcp.ts, docs/agents.md) against the built development worker, as an
 * agent's MCP client runs it: the tools it lists, the console's answers through them, and what a
 * console token may not do. A person at the console (any visitor of npm start's) makes the token.
 */

const TOKEN_NAME = 'mcp-agent';

let worker: BuiltWorker;
let secret: string;
let client: Client;

/** A console write as a person at npm start's console makes it: from the console's own page. */
function asPerson(path: string, body: unknown): Promise<Response> {
  return fetch(new URL(path, worker.url), {
    method: 'POST',
    headers: {
      Origin: worker.url.origin,
      'Sec-Fetch-Site': 'same-origin',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

/** A token with `scopes`, made as a person does at the console. */
async function makeToken(scopes: string[]): Promise<string> {
  const answer = await asPerson('/console/api/tokens', { name: TOKEN_NAME, scopes });
  expect(answer.status).toBe(201);
  const made = (await answer.json()) as { secret: string; token: { name: string } };
  expect(made.token.name).toBe(TOKEN_NAME);
  return made.secret;
}

beforeAll(async () => {
  worker = await startBuiltWorker({ quiet: true });
  secret = await makeToken(['read', 'content']);
  client = new Client({ name: 'mcp-cli-test', version: '1.0.0' });
  const env = { ...process.env, GEOFUNNEL_TOKEN: secret } as Record<string, string>;
  await client.connect(
    new StdioClientTransport({
      command: TSX,
      args: ['scripts/mcp.ts', '--url', worker.url.origin],
      env,
      stderr: 'ignore',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await worker?.stop();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult, index = 0) => {
  const part = result.content[index];
  return part?.type === 'text' ? part.text : '';
};

/** The API's JSON a tool answered with. */
function answerOf<T>(result: CallToolResult): T {
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result)) as T;
}

interface State {
  author: string;
  live: Record<'split' | 'flows' | 'routing' | 'experiments' | 'content', Record<string, unknown>>;
  head: { seq: number } | null;
}

interface Draft {
  revision: number;
  editedBy: string;
  review: { requestedBy: string; note: string } | null;
}

describe('npm run mcp', () => {
  it('lists the console tools an agent may use, and none that publishes or approves', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'draft_get',
      'draft_save',
      'request_approval',
      'results',
      'review',
      'simulate',
      'state',
      'visitor_gets',
    ]);
    for (const tool of tools) {
      expect(tool.name).not.toMatch(/publish|approve|rollback|restore|ramp|token/);
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
    }
  });

  it('reads the live state, as the token where the worker has tokens', async () => {
    const state = answerOf<State>(await call('state'));
    expect(Object.keys(state.live).sort()).toEqual([
      'content',
      'experiments',
      'flows',
      'routing',
      'split',
    ]);
    expect(state.author).toBe(`token:${TOKEN_NAME}`);
  });

  it('answers a refusal as a tool error with the API code and status', async () => {
    const refused = await call('results', { experiment: 'no-such-experiment' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('unknown_experiment (HTTP 404)');
    expect(JSON.parse(textOf(refused, 1))).toEqual({ ok: false, error: 'unknown_experiment' });
    // The split's results, for comparison, answer.
    expect(answerOf<{ phase: number }>(await call('results')).phase).toBeGreaterThan(0);
  });

  it('saves a content edit to its own draft and asks a person to approve it', async () => {
    // A version published first, as on any worker in use, so the edit's change from what is
    // live is the content alone (before the first publish, every section is new).
    const live = answerOf<State>(await call('state')).live;
    expect((await asPerson('/console/api/publish', { base: null, document: live })).status).toBe(
      200,
    );
    const state = answerOf<State>(await call('state'));
    expect(state.head?.seq).toBe(1);
    expect(answerOf<{ draft: Draft | null }>(await call('draft_get')).draft).toBeNull();
    const document = {
      ...state.live,
      content: {
        ...state.live.content,
        saveOffer: { title: { en: 'Stay' }, text: { en: 'A month free.' } },
      },
    };
    const saved = answerOf<{ draft: Draft }>(
      await call('draft_save', { revision: 0, base: state.head?.seq ?? null, document }),
    );
    expect(saved.draft).toMatchObject({ revision: 1, editedBy: `token:${TOKEN_NAME}` });
    const asked = answerOf<{ draft: Draft }>(
      await call('request_approval', { revision: 1, note: 'A save offer before a cancel' }),
    );
    expect(asked.draft.review).toMatchObject({
      requestedBy: `token:${TOKEN_NAME}`,
      note: 'A save offer before a cancel',
    });
    // The team's shared draft, which the console shows people, is not the token's.
    const shared = await fetch(new URL('/console/api/draft', worker.url));
    expect(((await shared.json()) as { draft: Draft | null }).draft).toBeNull();
  });

  it('cannot publish, approve, or save a traffic edit without the traffic scope', async () => {
    const bearer = { authorization: `Bearer ${secret}` };
    const state = answerOf<State>(await call('state'));
    // Refused by method and path before any body is read, so sent with none: workerd answering
    // while a body of any size lay unread closed the connection under the answer in loaded runs
    // (ECONNRESET), the answer lost with it.
    for (const path of ['/console/api/publish', '/console/api/draft/approve']) {
      const answer = await fetch(new URL(path, worker.url), { method: 'POST', headers: bearer });
      expect([path, answer.status, await answer.json()]).toEqual([
        path,
        403,
        { ok: false, error: 'token_not_allowed' },
      ]);
    }
    const { draft } = answerOf<{ draft: Draft | null }>(await call('draft_get'));
    // One variant's weight up by one: a change of who gets what, the traffic scope's.
    const variants = state.live.split.variants as Record<string, { weight: number }>;
    const [first] = Object.keys(variants) as [string];
    const moved = {
      ...variants,
      [first]: { ...variants[first], weight: (variants[first]?.weight ?? 0) + 1 },
    };
    const split = { ...state.live.split, variants: moved };
    const refused = await call('draft_save', {
      revision: draft?.revision ?? 0,
      base: state.head?.seq ?? null,
      document: { ...state.live, split },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^token_scope \(HTTP 403\): /);
  });
});

describe('the API’s OpenAPI document on the built worker', () => {
  it('is the console’s, past its access check, never a public file', async () => {
    const url = new URL('/console/api/openapi.json', worker.url);
    // The worker runs first for /console (wrangler.toml run_worker_first): a made-up token is
    // refused there, though the build wrote the document among the static assets.
    const forged = await fetch(url, {
      headers: { authorization: `Bearer gft_${'0'.repeat(12)}_${'0'.repeat(40)}` },
    });
    expect(forged.status).toBe(401);
    const read = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
    expect(read.status).toBe(200);
    const document = (await read.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/console/api/draft');
  });
});

describe('npm run mcp without a token', () => {
  it('exits at once, saying how to give it one', async () => {
    const env = { ...process.env };
    delete env.GEOFUNNEL_TOKEN;
    const run = promisify(execFile)(TSX, ['scripts/mcp.ts', '--url', 'http://127.0.0.1:8787'], {
      env,
    });
    const failed = await run.then(
      () => null,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toMatch(
      /^error: GEOFUNNEL_TOKEN is not set: a person makes a console token \(docs\/agents\.md\)/,
    );
  });
});
