// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $draft } from '../../../console/kit/stores/draft';
import { $sharedDraft, loadSharedDraft } from '../../../console/kit/stores/shared-draft';
import { $tools, $toolsOutcome, loadTools } from '../../../console/team/stores/tools';
import { ToolsAndAgents } from '../../../console/team/ToolsAndAgents';
import { CONSOLE_DRAFT_API, type SharedDraft } from '../../../shared/console-api/draft';
import { CONSOLE_TOKENS_API, type ConsoleToken } from '../../../shared/console-api/tokens';
import { SPLIT_DOCUMENT } from '../../worker/console/documents';

/**
 * The console's Tools and agents area (console/team/ToolsAndAgents.tsx) against a stubbed
 * worker: a token made by keyboard shows its secret once, a bad name is said beside the form and
 * nothing is sent, a token is revoked, and a change set an agent prepared is taken into the team's
 * draft, whose document then is the agent's.
 */

const AT = '2026-11-30T09:00:00.000Z';

const AGENT_TOKEN: ConsoleToken = {
  name: 'copy-agent',
  scopes: ['read', 'content'],
  createdBy: 'ada@example.com',
  createdAt: AT,
};

const AGENT_DOCUMENT = {
  ...SPLIT_DOCUMENT,
  content: { screens: { one_pager: { copy: { en: { 'screens.one_pager.title': 'Calmer' } } } } },
};

const CHANGE_SET: SharedDraft = {
  revision: 2,
  base: 1,
  document: AGENT_DOCUMENT,
  pausedWeights: {},
  editors: ['token:copy-agent'],
  editedBy: 'token:copy-agent',
  at: AT,
  review: { requestedBy: 'token:copy-agent', note: 'a calmer headline', at: AT },
};

interface Sent {
  url: string;
  body: unknown;
}

function stubWorker(tokens: ConsoleToken[]) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      if (init?.method && init.method !== 'GET') sent.push({ url, body });
      if (url === CONSOLE_TOKENS_API.tokens && body) {
        tokens.push({ ...AGENT_TOKEN, name: body.name, scopes: body.scopes });
        return Response.json(
          { ok: true, token: tokens.at(-1), secret: `gft_${'1'.repeat(12)}_${'2'.repeat(40)}` },
          { status: 201 },
        );
      }
      if (url === CONSOLE_TOKENS_API.tokens) return Response.json({ ok: true, tokens });
      if (url === CONSOLE_TOKENS_API.revoke) {
        const token = tokens.find((one) => one.name === body.name);
        if (token) Object.assign(token, { revokedBy: 'ada@example.com', revokedAt: AT });
        return Response.json({ ok: true });
      }
      if (url === CONSOLE_DRAFT_API.changeSets) {
        return Response.json({
          ok: true,
          changeSets: [{ owner: 'token:copy-agent', draft: CHANGE_SET }],
        });
      }
      expect(url).toBe(`${CONSOLE_DRAFT_API.changeSets}/take`);
      return Response.json({
        ok: true,
        draft: { ...CHANGE_SET, revision: 4, editors: ['ada@example.com'], review: null },
      });
    }),
  );
  return sent;
}

beforeEach(() => {
  $tools.set({ kind: 'loading' });
  $toolsOutcome.set(null);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function drawn(tokens: ConsoleToken[]) {
  const sent = stubWorker(tokens);
  render(<ToolsAndAgents />);
  await loadTools();
  return sent;
}

describe('tokens', () => {
  it('makes one by keyboard, shows its secret once, and lists it', async () => {
    const sent = await drawn([]);
    expect(screen.getByText('No token yet.')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('copy-agent');
    // Read is ticked; Tab past it to Content, tick it with Space, Tab past Traffic to the button.
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Content:/));
    await user.keyboard(' ');
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Make the token' }));
    await user.keyboard('{Enter}');
    const secret = await screen.findByLabelText(/Token copy-agent: copy it now/);
    expect((secret as HTMLInputElement).value).toMatch(/^gft_/);
    expect(sent).toEqual([
      { url: CONSOLE_TOKENS_API.tokens, body: { name: 'copy-agent', scopes: ['read', 'content'] } },
    ]);
    const list = await screen.findByRole('list', { name: 'Console tokens' });
    expect(within(list).getByText('copy-agent')).toBeTruthy();
  });

  it('says what a name must be beside the form, and sends nothing', async () => {
    const sent = await drawn([]);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Copy Agent');
    await user.click(screen.getByRole('button', { name: 'Make the token' }));
    expect(screen.getByRole('alert').textContent).toContain('lower-case letters');
    expect(sent).toEqual([]);
  });

  it('revokes one, which then reads who revoked it', async () => {
    const sent = await drawn([{ ...AGENT_TOKEN }]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Revoke copy-agent' }));
    expect(sent).toEqual([{ url: CONSOLE_TOKENS_API.revoke, body: { name: 'copy-agent' } }]);
    expect(await screen.findByText(/revoked by ada@example.com/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke copy-agent' })).toBeNull();
  });
});

describe('change sets', () => {
  it('lists what an agent prepared, with its note, and takes it into the team draft', async () => {
    // The team's draft at revision 3 as the console loads it, nothing unsaved: whatever an
    // earlier file in this thread left in the draft stores is replaced.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          ok: true,
          draft: { ...CHANGE_SET, revision: 3, document: SPLIT_DOCUMENT, review: null },
          approvalRequired: true,
        }),
      ),
    );
    await loadSharedDraft();
    expect($sharedDraft.get()).toMatchObject({ kind: 'shared', revision: 3 });
    const sent = await drawn([{ ...AGENT_TOKEN }]);
    const sets = screen.getByRole('list', { name: 'Change sets tools prepared' });
    expect(within(sets).getByText(/a calmer headline/)).toBeTruthy();
    await userEvent.setup().click(
      screen.getByRole('button', {
        name: "Take token:copy-agent's change set into the team draft",
      }),
    );
    expect(sent).toEqual([
      {
        url: `${CONSOLE_DRAFT_API.changeSets}/take`,
        body: { revision: 3, owner: 'token:copy-agent' },
      },
    ]);
    expect((await screen.findByRole('status')).textContent).toContain('is now the team');
    expect($draft.get()?.document).toEqual(AGENT_DOCUMENT);
  });
});
