import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_API, type ConfigDocument } from '../../../shared/console-api/config';
import { CONSOLE_COPY_API } from '../../../shared/console-api/copy';
import {
  type ChangeSetsAnswer,
  CONSOLE_DRAFT_API,
  type DraftAnswer,
  type DraftReviewAnswer,
  type DraftSavedAnswer,
} from '../../../shared/console-api/draft';
import { CONSOLE_OPENAPI_PATH } from '../../../shared/console-api/openapi';
import {
  tokenCreateRequest,
  tokenRevokeRequest,
} from '../../../shared/console-api/request-schemas';
import { CONSOLE_SIMULATE_PATH } from '../../../shared/console-api/simulation';
import {
  CONSOLE_TOKENS_API,
  type TokenCreatedAnswer,
  type TokenScope,
  type TokensAnswer,
} from '../../../shared/console-api/tokens';
import {
  ACCESS_TOKEN_HEADER,
  accessKeySets,
  LOCAL_AUTHOR,
} from '../../../worker/access/console-access';
import { TOKEN_CALLS_PER_ADDRESS } from '../../../worker/access/console-tokens';
import { gateOf } from '../../../worker/alerts/break-glass';
import { kvLiveKeys, publish } from '../../../worker/config/publish';
import { d1Runner, versionStore } from '../../../worker/config/versions';
import { freshApp, productionApp } from '../fetch-app';
import { accessClaims, NOW_MS, PRODUCTION, type Signer, teamAndStranger } from './access-tokens';
import { SPLIT_DOCUMENT as DOCUMENT } from './documents';

/**
 * Console tokens (shared/console-api/tokens.ts) against the real D1 and the real rate limiter:
 * a person makes one, a tool works the console API with it within its scopes, its draft edits
 * are a change set of its own that a person takes into the team's draft, and no token publishes,
 * approves or makes tokens, whatever it sends.
 */

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
/** A tool's request: no browser headers, only its credential. */
const TOOL = { 'Content-Type': 'application/json' };

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

const local: Fetch = freshApp();

function personCall(fetchApp: Fetch, method: string, path: string, body?: unknown) {
  return fetchApp(path, {
    method,
    headers: method === 'GET' ? {} : SAME_ORIGIN,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function toolCall(
  fetchApp: Fetch,
  secret: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return fetchApp(path, {
    method,
    headers: { ...TOOL, Authorization: `Bearer ${secret}`, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function makeToken(name: string, scopes: TokenScope[], fetchApp: Fetch = local) {
  const made = await personCall(fetchApp, 'POST', CONSOLE_TOKENS_API.tokens, { name, scopes });
  expect(made.status).toBe(201);
  return ((await made.json()) as TokenCreatedAnswer).secret;
}

/** `document` with the one-pager's headline in English: a content-only change. */
const withHeadline = (document: ConfigDocument, headline: string): ConfigDocument => ({
  ...document,
  content: { screens: { one_pager: { copy: { en: { 'screens.one_pager.title': headline } } } } },
});

/** `document` with the split's weights moved: a traffic change. */
const reweighted = (document: ConfigDocument): ConfigDocument => ({
  ...document,
  split: {
    ...document.split,
    variants: { default: { weight: 20, flow: 'default' }, lp1ch2: { weight: 80 } },
  },
});

const draftSave = (revision: number, document: ConfigDocument) => ({
  revision,
  base: 1,
  document,
  pausedWeights: {},
});

/** A token's save of its change set's first revision. */
const tokenSave = (secret: string, document: ConfigDocument) =>
  toolCall(local, secret, 'PUT', CONSOLE_DRAFT_API.draft, draftSave(0, document));

beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM config_versions');
  await env.CONFIG_DB.exec('DELETE FROM console_draft_revisions');
  await env.CONFIG_DB.exec('DELETE FROM console_tokens');
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const outcome = await publish(
    {
      versions: versionStore(d1Runner(env.CONFIG_DB)),
      live: kvLiveKeys(env.FUNNEL_CONFIG),
      gate: gateOf(env),
    },
    {
      base: null,
      document: DOCUMENT,
      author: 'cli@example.com',
      note: 'start',
      source: 'cli',
      now: new Date(NOW_MS),
    },
  );
  expect(outcome.kind).toBe('published');
});
afterEach(() => vi.restoreAllMocks());

describe('a person makes and revokes tokens', () => {
  it('shows the secret once, keeps only its hash, lists the token and stops it on revoke', async () => {
    const secret = await makeToken('copy-agent', ['content', 'read']);
    expect(secret).toMatch(/^gft_[0-9a-f]{12}_[0-9a-f]{40}$/);
    const stored = await env.CONFIG_DB.prepare('SELECT * FROM console_tokens').all();
    expect(JSON.stringify(stored.results)).not.toContain(secret.slice(17));

    const listed = (await (
      await personCall(local, 'GET', CONSOLE_TOKENS_API.tokens)
    ).json()) as TokensAnswer;
    expect(listed.tokens).toEqual([
      {
        name: 'copy-agent',
        scopes: ['read', 'content'],
        createdBy: LOCAL_AUTHOR,
        createdAt: expect.any(String),
      },
    ]);
    expect((await toolCall(local, secret, 'GET', CONSOLE_API.state)).status).toBe(200);

    const revoked = await personCall(local, 'POST', CONSOLE_TOKENS_API.revoke, {
      name: 'copy-agent',
    });
    expect(revoked.status).toBe(200);
    const after = await toolCall(local, secret, 'GET', CONSOLE_API.state);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ ok: false, error: 'token_invalid' });
    // Revoked names stay taken, so the logs and drafts keep naming one token.
    const again = await personCall(local, 'POST', CONSOLE_TOKENS_API.tokens, {
      name: 'copy-agent',
      scopes: ['read'],
    });
    expect(again.status).toBe(409);
  });

  it('refuses a bad name, an unknown scope, no scope and a revoke of nobody, writing nothing', async () => {
    for (const body of [
      { name: 'Bad Name', scopes: ['read'] },
      { name: 'x', scopes: ['publish'] },
      { name: 'x', scopes: [] },
      { name: 'x' },
    ]) {
      expect((await personCall(local, 'POST', CONSOLE_TOKENS_API.tokens, body)).status).toBe(400);
    }
    expect(
      (await personCall(local, 'POST', CONSOLE_TOKENS_API.revoke, { name: 'nobody' })).status,
    ).toBe(404);
    const rows = await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM console_tokens').first('n');
    expect(rows).toBe(0);
  });

  it('takes exactly the bodies the OpenAPI document’s schemas take, one scope once', async () => {
    // Another person, so these posts count against their own writes, not the file's author's.
    const asOther: Fetch = (path, init = {}) =>
      local(path, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          Cookie: 'gf_console_as=grace@example.com',
        },
      });
    const creates: unknown[] = [
      {},
      'tool',
      { name: 'tool-a', scopes: 'read' },
      { name: 'tool-a', scopes: ['read', 7] },
      { name: '-tool', scopes: ['read'] },
      { name: 'x'.repeat(41), scopes: ['read'] },
      { name: 'tool-a', scopes: ['traffic', 'read', 'traffic'] },
      { name: 'tool-b', scopes: ['content'], extra: true },
    ];
    for (const body of creates) {
      const made = await personCall(asOther, 'POST', CONSOLE_TOKENS_API.tokens, body);
      expect({ body, refused: made.status === 400 }).toEqual({
        body,
        refused: !tokenCreateRequest.safeParse(body).success,
      });
    }
    const listed = (await (
      await personCall(local, 'GET', CONSOLE_TOKENS_API.tokens)
    ).json()) as TokensAnswer;
    expect(listed.tokens.map(({ name, scopes }) => ({ name, scopes }))).toEqual([
      { name: 'tool-a', scopes: ['read', 'traffic'] },
      { name: 'tool-b', scopes: ['content'] },
    ]);
    for (const body of [{}, { name: 7 }, { name: 'Tool A' }, { name: 'tool-a' }]) {
      const revoked = await personCall(asOther, 'POST', CONSOLE_TOKENS_API.revoke, body);
      expect({ body, refused: revoked.status === 400 }).toEqual({
        body,
        refused: !tokenRevokeRequest.safeParse(body).success,
      });
    }
  });
});

describe('what a token may do', () => {
  it('refuses a malformed, a made-up and a forged token alike, and never falls back to the browser', async () => {
    const secret = await makeToken('reader', ['read']);
    const forged = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
    for (const presented of ['', 'nonsense', `gft_${'0'.repeat(12)}_${'0'.repeat(40)}`, forged]) {
      const answer = await toolCall(
        local,
        presented,
        'GET',
        CONSOLE_API.state,
        undefined,
        SAME_ORIGIN,
      );
      expect(answer.status, presented).toBe(401);
    }
  });

  it('reads, reviews an edit and tests a visitor with read; publishes, approves and makes tokens never', async () => {
    const secret = await makeToken('everything', ['read', 'content', 'traffic']);
    expect((await toolCall(local, secret, 'GET', CONSOLE_API.versions)).status).toBe(200);
    // What each call takes, for the tool to read first.
    const described = await toolCall(local, secret, 'GET', CONSOLE_OPENAPI_PATH);
    expect(described.status).toBe(200);
    expect(await described.json()).toMatchObject({ openapi: '3.1.0' });
    const check = await toolCall(local, secret, 'POST', CONSOLE_API.check, {
      base: 1,
      document: reweighted(DOCUMENT),
    });
    expect(check.status).toBe(200);
    const refusedCalls: [string, string, unknown][] = [
      ['POST', CONSOLE_API.publish, { base: 1, document: reweighted(DOCUMENT), note: 'mine' }],
      ['POST', CONSOLE_API.rollback, { base: 1, seq: 1, note: 'back' }],
      ['POST', CONSOLE_DRAFT_API.approve, { revision: 1 }],
      ['POST', CONSOLE_DRAFT_API.restore, { revision: 0, seq: 1 }],
      ['POST', CONSOLE_COPY_API.publish, { base: null, copy: {} }],
      ['POST', CONSOLE_TOKENS_API.tokens, { name: 'child', scopes: ['read'] }],
      ['GET', CONSOLE_TOKENS_API.tokens, undefined],
      ['GET', CONSOLE_DRAFT_API.changeSets, undefined],
      ['GET', '/console', undefined],
      // Test traffic writes made-up visitors into the results: a person's, where there is any.
      ['POST', `${CONSOLE_SIMULATE_PATH}/start`, { experiment: null, reset: false }],
    ];
    for (const [method, path, body] of refusedCalls) {
      const answer = await toolCall(local, secret, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(await answer.json()).toEqual({ ok: false, error: 'token_not_allowed' });
    }
    const versions = await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM config_versions').first(
      'n',
    );
    expect(versions).toBe(1);
  });

  it('saves its own change set within its scopes, asks a review, and leaves the team draft alone', async () => {
    const secret = await makeToken('copy-agent', ['read', 'content']);
    const team = await personCall(
      local,
      'PUT',
      CONSOLE_DRAFT_API.draft,
      draftSave(0, reweighted(DOCUMENT)),
    );
    expect(team.status).toBe(200);

    const traffic = await tokenSave(secret, reweighted(DOCUMENT));
    expect(traffic.status).toBe(403);
    expect(await traffic.json()).toEqual({ ok: false, error: 'token_scope' });

    const saved = await tokenSave(secret, withHeadline(DOCUMENT, 'Find them, with consent'));
    expect(saved.status).toBe(200);
    const { draft } = (await saved.json()) as DraftSavedAnswer;
    expect(draft).toMatchObject({
      revision: 1,
      editors: ['token:copy-agent'],
      editedBy: 'token:copy-agent',
    });
    const asked = await toolCall(local, secret, 'POST', CONSOLE_DRAFT_API.review, {
      revision: 1,
      note: 'a calmer headline',
    });
    expect(((await asked.json()) as DraftReviewAnswer).draft.review).toMatchObject({
      requestedBy: 'token:copy-agent',
      note: 'a calmer headline',
    });

    const own = (await (
      await toolCall(local, secret, 'GET', CONSOLE_DRAFT_API.draft)
    ).json()) as DraftAnswer;
    expect(own.draft?.document.content.screens.one_pager).toBeDefined();
    const teams = (await (
      await personCall(local, 'GET', CONSOLE_DRAFT_API.draft)
    ).json()) as DraftAnswer;
    expect(teams.draft).toMatchObject({ revision: 1, editors: [LOCAL_AUTHOR] });
    expect(teams.draft?.document.content).toEqual(DOCUMENT.content);
  });

  it('before anything is published through the history, reads its scope against what KV holds', async () => {
    // As under a fresh npm start: the config seeded into KV, no version in the history.
    await env.CONFIG_DB.exec('DELETE FROM config_versions');
    const secret = await makeToken('copy-agent', ['read', 'content']);
    const unbased = (document: ConfigDocument) =>
      toolCall(local, secret, 'PUT', CONSOLE_DRAFT_API.draft, {
        ...draftSave(0, document),
        base: null,
      });
    expect((await unbased(reweighted(DOCUMENT))).status).toBe(403);
    expect((await unbased(withHeadline(DOCUMENT, 'Find them, with consent'))).status).toBe(200);
  });

  it('a read-only token may not save or ask a review', async () => {
    const secret = await makeToken('reader', ['read']);
    const saved = await tokenSave(secret, withHeadline(DOCUMENT, 'Mine'));
    expect(saved.status).toBe(403);
    const asked = await toolCall(local, secret, 'POST', CONSOLE_DRAFT_API.review, { revision: 1 });
    expect(asked.status).toBe(403);
    expect(await asked.json()).toEqual({ ok: false, error: 'token_scope' });
  });
});

describe('a person takes a change set', () => {
  it('lists what tokens prepared and takes one into the team draft, by the person, to publish as any edit', async () => {
    const secret = await makeToken('copy-agent', ['read', 'content']);
    const edited = withHeadline(DOCUMENT, 'Find them, with consent');
    await toolCall(local, secret, 'PUT', CONSOLE_DRAFT_API.draft, draftSave(0, edited));

    const listed = (await (
      await personCall(local, 'GET', CONSOLE_DRAFT_API.changeSets)
    ).json()) as ChangeSetsAnswer;
    expect(listed.changeSets).toEqual([
      {
        owner: 'token:copy-agent',
        draft: expect.objectContaining({ revision: 1, document: edited }),
      },
    ]);
    const taken = await personCall(local, 'POST', `${CONSOLE_DRAFT_API.changeSets}/take`, {
      revision: 0,
      owner: 'token:copy-agent',
    });
    expect(taken.status).toBe(200);
    expect(((await taken.json()) as DraftSavedAnswer).draft).toMatchObject({
      revision: 1,
      editedBy: LOCAL_AUTHOR,
      document: edited,
    });

    const published = await personCall(local, 'POST', CONSOLE_API.publish, {
      base: 1,
      document: edited,
      note: 'the agent’s headline',
      draft: 1,
    });
    expect(published.status).toBe(200);
  });

  it('refuses to take a set that is not a token’s or does not exist', async () => {
    for (const owner of ['', 'someone@example.com', 'token:nobody']) {
      const taken = await personCall(local, 'POST', `${CONSOLE_DRAFT_API.changeSets}/take`, {
        revision: 0,
        owner,
      });
      expect([400, 404], owner).toContain(taken.status);
    }
  });
});

describe('behind Cloudflare Access in production', () => {
  let team: Signer;
  beforeAll(async () => {
    ({ team } = await teamAndStranger());
  });

  function production(): Fetch {
    const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
    return productionApp(
      { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
      PRODUCTION,
    );
  }

  it('a token works only with Access: a service token lets it in, none refuses it, and a service token alone is no author', async () => {
    const fetchApp = production();
    const person = {
      [ACCESS_TOKEN_HEADER]: await team.sign(accessClaims({ email: 'ada@example.com' })),
    };
    const made = await fetchApp(CONSOLE_TOKENS_API.tokens, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, ...person },
      body: JSON.stringify({ name: 'agent', scopes: ['read'] }),
    });
    expect(made.status).toBe(201);
    const { secret } = (await made.json()) as TokenCreatedAnswer;
    const service = {
      [ACCESS_TOKEN_HEADER]: await team.sign(
        accessClaims({ email: undefined, common_name: 'abc.access' }),
      ),
    };
    expect(
      (await toolCall(fetchApp, secret, 'GET', CONSOLE_API.state, undefined, service)).status,
    ).toBe(200);
    expect((await toolCall(fetchApp, secret, 'GET', CONSOLE_API.state)).status).toBe(401);
    const alone = await fetchApp(CONSOLE_API.state, { headers: service });
    expect(alone.status).toBe(403);
  });
});

describe('a flood of tokens from one address', () => {
  it('is stopped after the limit, before each costs a database read', async () => {
    const address = { 'CF-Connecting-IP': '203.0.113.9' };
    const made = `gft_${'a'.repeat(12)}_${'b'.repeat(40)}`;
    let last = 0;
    for (let call = 0; call <= TOKEN_CALLS_PER_ADDRESS.limit; call++) {
      last = (await toolCall(local, made, 'GET', CONSOLE_API.state, undefined, address)).status;
      if (call < TOKEN_CALLS_PER_ADDRESS.limit) expect(last).toBe(401);
    }
    expect(last).toBe(429);
  });
});
