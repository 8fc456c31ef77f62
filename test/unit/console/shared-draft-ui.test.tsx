// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { History } from '../../../console/history/History';
import { setWeight } from '../../../console/kit/stores/draft';
import { $live } from '../../../console/kit/stores/live';
import { openPage } from '../../../console/kit/stores/page';
import { loadConsole, publishDraft } from '../../../console/kit/stores/publishing';
import { flushSave, SAVE_DELAY_MS } from '../../../console/kit/stores/shared-draft';
import { $editStatus } from '../../../console/kit/stores/status';
import { Console } from '../../../console/page/Console';
import { EditPublish } from '../../../console/split/EditPublish';
import {
  CONSOLE_API,
  type ConfigDocument,
  type ConsoleState,
} from '../../../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../../../shared/console-api/content';
import { CONSOLE_COPY_API } from '../../../shared/console-api/copy';
import { CONSOLE_DRAFT_API, type SharedDraft } from '../../../shared/console-api/draft';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import { renderAreas } from './areas';
import { consoleState, EMPTY_CATALOGUE, EMPTY_COPY, liveDocument, resultsAnswer } from './fixtures';

/**
 * The console's side of the team's shared draft (console/kit/stores/shared-draft.ts,
 * console/team/): loaded on start, saved after an edit with the revision it started from, a
 * clash with someone else's save, and the review a publish waits for when approval is required.
 */

/** `document` with lp17's weight. */
function weighted(document: ConfigDocument, weight: number): ConfigDocument {
  const variants = { ...document.split.variants, lp17: { weight, flow: 'lp17ch17pr5' } };
  return { ...document, split: { ...document.split, variants } };
}

function sharedDraft(overrides: Partial<SharedDraft> = {}): SharedDraft {
  return {
    revision: 4,
    base: 2,
    document: weighted(liveDocument(), 35),
    pausedWeights: {},
    editors: ['ada@example.com'],
    editedBy: 'ada@example.com',
    at: '2026-11-22T09:00:00.000Z',
    review: null,
    ...overrides,
  };
}

type Reply = { status: number; body: unknown };
type Handler = (body: Record<string, unknown>) => Reply;

/** The worker as the console sees it: each test says what the draft's calls answer. */
/** The console's POSTs that only ask the worker something. */
const READ_ONLY_POSTS: ReadonlySet<string> = new Set([
  CONSOLE_API.visitorGets,
  CONSOLE_API.routeTest,
  CONSOLE_CONTENT_API.languages,
  CONSOLE_CONTENT_API.preview,
]);

function stubWorker(options: {
  state?: ConsoleState;
  draft?: SharedDraft | null;
  approvalRequired?: boolean;
  calls?: Record<string, Handler>;
  versions?: VersionsAnswer;
  noDraftCall?: boolean;
}) {
  const state = options.state ?? consoleState();
  const sent: { method: string; url: string; body: Record<string, unknown> }[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const reply = ({ status, body }: Reply) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    const method = init?.method ?? 'GET';
    if (method === 'GET') {
      const gets: Record<string, unknown> = {
        [CONSOLE_API.state]: state,
        [CONSOLE_API.versions]: options.versions ?? { versions: [] },
        [CONSOLE_RESULTS_PATH]: resultsAnswer(),
        [CONSOLE_COPY_API.state]: EMPTY_COPY,
        [CONSOLE_COPY_API.versions]: { versions: [] },
        [CONSOLE_CONTENT_API.catalogue]: EMPTY_CATALOGUE,
        [CONSOLE_DRAFT_API.draft]: options.noDraftCall
          ? undefined
          : {
              ok: true,
              draft: options.draft ?? null,
              approvalRequired: options.approvalRequired ?? false,
            },
      };
      return gets[url] !== undefined
        ? reply({ status: 200, body: gets[url] })
        : reply({ status: 404, body: {} });
    }
    // Questions that write nothing (what a visitor gets, what each language sees, a preview)
    // are not what these tests count: the draft's saves and the publish are.
    if (READ_ONLY_POSTS.has(url)) return reply({ status: 404, body: {} });
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    sent.push({ method, url, body });
    const handler = options.calls?.[`${method} ${url}`];
    return reply(handler ? handler(body) : { status: 500, body: {} });
  });
  vi.stubGlobal('fetch', fetch);
  return { sent };
}

/**
 * The draft's answers held back, as on a slow worker, until `release()`; `asked()` says whether
 * the console has asked for the draft since.
 */
function holdDraftAnswers(): { release: () => void; asked: () => boolean } {
  const answering = globalThis.fetch;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let draftAsked = false;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url === CONSOLE_DRAFT_API.draft) {
      draftAsked = true;
      await held;
    }
    return answering(url, init);
  });
  return { release, asked: () => draftAsked };
}

/** The worker's answer to a publish: live as v3. */
const publishedV3 = (): Reply => ({ status: 200, body: { ok: true, version: { id: 'v3' } } });

async function openConsole() {
  renderAreas((state) => <EditPublish state={state} />);
  await act(loadConsole);
  await screen.findByRole('heading', { level: 2, name: 'Edit and publish' });
}

const saved = (body: Record<string, unknown>, overrides: Partial<SharedDraft> = {}): Reply => ({
  status: 200,
  body: {
    ok: true,
    draft: sharedDraft({
      revision: (body.revision as number) + 1,
      document: body.document as ConfigDocument,
      editors: ['marketer@example.com'],
      editedBy: 'marketer@example.com',
      ...overrides,
    }),
  },
});

beforeEach(() => $editStatus.set(''));
afterEach(() => {
  cleanup();
  openPage('overview');
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the shared draft', () => {
  it('opens on the team’s draft and saves an edit a second later, from its revision', async () => {
    const { sent } = stubWorker({
      draft: sharedDraft(),
      calls: { [`PUT ${CONSOLE_DRAFT_API.draft}`]: (body) => saved(body) },
    });
    await openConsole();
    expect(screen.getByLabelText('Weight of lp17')).toHaveProperty('value', '35');
    const bar = screen.getByRole('region', { name: 'Shared draft' });
    expect(bar.textContent).toContain('Last saved by ada@example.com');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => setWeight('lp17', 60));
    expect(bar.textContent).toContain('saved in a moment');
    expect(sent).toEqual([]);
    act(() => vi.advanceTimersByTime(SAVE_DELAY_MS - 1));
    expect(sent).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await act(flushSave);
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      url: CONSOLE_DRAFT_API.draft,
      body: { revision: 4, base: 2, pausedWeights: {} },
    });
    expect((sent[0]!.body.document as ConfigDocument).split.variants.lp17?.weight).toBe(60);
    vi.useRealTimers();
    expect(bar.textContent).toContain('Last saved by marketer@example.com');
  });

  it('shows nothing to edit or review until the team’s draft is in', async () => {
    stubWorker({ draft: sharedDraft() });
    const { release, asked } = holdDraftAnswers();
    $live.set({ kind: 'loading' });
    openPage('publish');
    render(<Console />);
    const loading = act(loadConsole);
    // The draft is asked for once the live state has answered: all the console does before the
    // draft is in has been done, and React has drawn it.
    await vi.waitFor(() => expect(asked()).toBe(true));
    try {
      await act(async () => {});
      expect(screen.getByText('Loading the live config…')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Review changes' })).toBeNull();
    } finally {
      release();
      await loading;
    }
    await screen.findByRole('heading', { level: 2, name: 'Edit and publish' });
    expect(screen.getByLabelText('Weight of lp17')).toHaveProperty('value', '35');
  });

  it('takes in what a colleague saved when the tab is shown again', async () => {
    const worker = { draft: sharedDraft() };
    stubWorker(worker);
    await openConsole();
    worker.draft = sharedDraft({ revision: 5, document: weighted(liveDocument(), 10) });
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() =>
      expect(screen.getByLabelText('Weight of lp17')).toHaveProperty('value', '10'),
    );
  });

  it('shows what another saved on the same places, and takes theirs or keeps yours', async () => {
    const theirs = sharedDraft({
      revision: 5,
      document: weighted(liveDocument(), 10),
      editedBy: 'bob@example.com',
    });
    let conflicted = false;
    const { sent } = stubWorker({
      draft: sharedDraft(),
      calls: {
        [`PUT ${CONSOLE_DRAFT_API.draft}`]: (body) => {
          if (body.keepMine === true) return saved(body, { revision: 6 });
          conflicted = true;
          return {
            status: 409,
            body: {
              ok: false,
              error: 'draft_conflict',
              draft: theirs,
              theirs: [
                { path: 'split.variants.lp17.weight', kind: 'changed', before: 35, after: 10 },
              ],
              clashes: ['split.variants.lp17.weight'],
            },
          };
        },
      },
    });
    const user = userEvent.setup();
    await openConsole();
    act(() => setWeight('lp17', 60));
    await act(flushSave);
    expect(conflicted).toBe(true);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'bob@example.com saved the draft since you started editing',
    );
    expect(
      within(alert).getByRole('list', { name: 'Places you both changed' }).textContent,
    ).toContain('split.variants.lp17.weight');
    // Saves wait for the choice: a further edit sends nothing.
    act(() => setWeight('lp17', 61));
    await act(flushSave);
    expect(sent).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Keep mine where we both changed' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(sent[1]).toMatchObject({ body: { revision: 4, keepMine: true } });
    expect((sent[1]!.body.document as ConfigDocument).split.variants.lp17?.weight).toBe(61);
  });

  it('takes their draft when asked, dropping your edit', async () => {
    const theirs = sharedDraft({
      revision: 5,
      document: weighted(liveDocument(), 10),
      editedBy: 'bob@example.com',
    });
    stubWorker({
      draft: sharedDraft(),
      calls: {
        [`PUT ${CONSOLE_DRAFT_API.draft}`]: () => ({
          status: 409,
          body: { ok: false, error: 'draft_conflict', draft: theirs, theirs: [], clashes: [] },
        }),
      },
    });
    const user = userEvent.setup();
    await openConsole();
    act(() => setWeight('lp17', 60));
    await act(flushSave);
    await user.click(screen.getByRole('button', { name: 'Take their draft (drops your edits)' }));
    expect(screen.getByLabelText('Weight of lp17')).toHaveProperty('value', '10');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the draft in the tab, saying so, when the worker keeps none', async () => {
    // An older worker: the draft call is unknown to it.
    const { sent } = stubWorker({ noDraftCall: true });
    await openConsole();
    act(() => setWeight('lp17', 60));
    await act(flushSave);
    expect(screen.getByText(/kept in this tab only/)).toBeTruthy();
    expect(screen.getByLabelText('Weight of lp17')).toHaveProperty('value', '60');
    expect(sent).toEqual([]);
  });
});

describe('a review before publishing', () => {
  const check = (): Reply => ({
    status: 200,
    body: {
      ok: true,
      diff: [{ path: 'split.variants.lp17.weight', kind: 'changed', before: 20, after: 35 }],
      phase: null,
      approval: {
        required: true,
        reasons: [{ path: 'split.variants.lp17.weight', reason: 'moves traffic' }],
      },
    },
  });

  it('lets the author send the draft for review, with no publish until it is approved', async () => {
    const mine = sharedDraft({
      editors: ['marketer@example.com'],
      editedBy: 'marketer@example.com',
    });
    const { sent } = stubWorker({
      draft: mine,
      approvalRequired: true,
      calls: {
        [`POST ${CONSOLE_API.check}`]: check,
        [`POST ${CONSOLE_DRAFT_API.review}`]: (body) => ({
          status: 200,
          body: {
            ok: true,
            draft: {
              ...mine,
              review: { requestedBy: 'marketer@example.com', note: body.note, at: mine.at },
            },
          },
        }),
      },
    });
    const user = userEvent.setup();
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    const needs = await screen.findByRole('list', { name: 'Changes that need approval' });
    expect(needs.textContent).toContain('moves traffic');
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    await user.type(screen.getByLabelText('Note for the reviewer (optional)'), 'lp17 to 35');
    await user.click(screen.getByRole('button', { name: 'Send for review' }));
    expect(
      await screen.findByText(/Waiting for someone who did not edit it to approve/),
    ).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({
      url: CONSOLE_DRAFT_API.review,
      body: { revision: 4, note: 'lp17 to 35' },
    });
    expect(screen.queryByRole('button', { name: 'Approve this draft' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
  });

  it('keeps a note being written when the review is drawn again before it is sent', async () => {
    const mine = sharedDraft({
      editors: ['marketer@example.com'],
      editedBy: 'marketer@example.com',
    });
    const { sent } = stubWorker({
      draft: mine,
      approvalRequired: true,
      calls: {
        [`POST ${CONSOLE_API.check}`]: check,
        [`POST ${CONSOLE_DRAFT_API.review}`]: (body) => ({
          status: 200,
          body: {
            ok: true,
            draft: {
              ...mine,
              review: { requestedBy: 'marketer@example.com', note: body.note, at: mine.at },
            },
          },
        }),
      },
    });
    const user = userEvent.setup();
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await screen.findByRole('list', { name: 'Changes that need approval' });
    await user.type(screen.getByLabelText('Note for the reviewer (optional)'), 'lp17 to 35');
    // The review is checked again (a save landed, a colleague's edit came in): drawn anew.
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await screen.findByRole('list', { name: 'Changes that need approval' });
    expect(screen.getByLabelText<HTMLInputElement>('Note for the reviewer (optional)').value).toBe(
      'lp17 to 35',
    );
    await user.click(screen.getByRole('button', { name: 'Send for review' }));
    await screen.findByText(/Waiting for someone who did not edit it to approve/);
    expect(sent.at(-1)).toMatchObject({ body: { note: 'lp17 to 35' } });
  });

  it('lets another person approve, then publish the approved revision', async () => {
    const asked = sharedDraft({
      review: {
        requestedBy: 'ada@example.com',
        note: 'lp17 to 35',
        at: '2026-11-22T09:01:00.000Z',
      },
    });
    const { sent } = stubWorker({
      draft: asked,
      approvalRequired: true,
      calls: {
        [`POST ${CONSOLE_API.check}`]: check,
        [`POST ${CONSOLE_DRAFT_API.approve}`]: () => ({
          status: 200,
          body: {
            ok: true,
            draft: {
              ...asked,
              review: { ...asked.review, approvedBy: 'marketer@example.com', approvedAt: asked.at },
            },
          },
        }),
        [`POST ${CONSOLE_API.publish}`]: publishedV3,
      },
    });
    const user = userEvent.setup();
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    expect(await screen.findByText(/asks you to approve this draft: “lp17 to 35”/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve this draft' }));
    expect(await screen.findByText(/Approved by/)).toBeTruthy();
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      url: CONSOLE_DRAFT_API.approve,
      body: { revision: 4 },
    });
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(sent.at(-1)?.url).toBe(CONSOLE_API.publish));
    expect(sent.at(-1)?.body).toMatchObject({ base: 2, draft: 4 });
  });

  it('takes the last review’s Publish away while it is checked again, and a press meanwhile publishes once', async () => {
    const { sent } = stubWorker({
      draft: sharedDraft(),
      calls: {
        [`POST ${CONSOLE_API.check}`]: () => ({
          ...check(),
          body: { ...(check().body as object), approval: { required: false, reasons: [] } },
        }),
        [`POST ${CONSOLE_API.publish}`]: publishedV3,
      },
    });
    const user = userEvent.setup();
    await openConsole();
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await screen.findByRole('button', { name: 'Publish' });

    // Reviewed again on a slow worker.
    const { release } = holdDraftAnswers();
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.getByText('Checking the draft…')).toBeTruthy();

    // A press that reached the old Publish as it went: it waits for this review, then publishes.
    const published = publishDraft('');
    release();
    expect(await act(() => published)).toBe(true);
    expect(sent.filter(({ url }) => url === CONSOLE_API.publish)).toHaveLength(1);
    expect($editStatus.get()).toBe('Published v3. It is live now.');
  });
});

describe('the history', () => {
  const head = consoleState().head!;

  it('names who edited the draft a version published, who asked its review and who approved it; none on the others', async () => {
    stubWorker({
      versions: {
        versions: [
          {
            ...head,
            seq: 3,
            id: 'v3',
            author: 'bob@example.com',
            editors: ['ada@example.com', 'bob@example.com'],
            requester: 'bob@example.com',
            approver: 'carol@example.com',
            diff: [],
          },
          { ...head, diff: [] },
        ],
      },
    });
    render(<History />);
    await act(loadConsole);
    const v3 = screen.getByRole('article', { name: /v3/ });
    const fact = (term: string) => within(v3).getByText(term).nextSibling?.textContent;
    expect(fact('Edited by')).toBe('ada@example.com, bob@example.com');
    expect(fact('Review asked by')).toBe('bob@example.com');
    expect(fact('Approved by')).toBe('carol@example.com');
    expect(within(v3).getByText(/by bob@example.com/)).toBeTruthy();
    const v2 = within(screen.getByRole('article', { name: /v2/ }));
    for (const term of ['Edited by', 'Review asked by', 'Approved by']) {
      expect(v2.queryByText(term)).toBeNull();
    }
  });

  it('rolls back by keyboard: the confirm step takes the focus to its note, Tab to Confirm, Space', async () => {
    const v1 = { ...head, seq: 1, id: 'v1', base: null, note: 'lp17 joins', diff: [] };
    const worker = {
      versions: { versions: [{ ...head, diff: [] }, v1] } as VersionsAnswer,
      calls: {
        [`POST ${CONSOLE_API.rollback}`]: (): Reply => {
          // What the worker lists once the roll back is published: v3, restoring v1.
          worker.versions = {
            versions: [
              {
                ...head,
                seq: 3,
                id: 'v3',
                base: 2,
                source: 'rollback',
                restores: 1,
                note: 'back to 50/50',
                diff: [
                  { path: 'split.variants.lp17.weight', kind: 'changed', before: 20, after: 50 },
                ],
              },
              ...worker.versions.versions,
            ],
          };
          return { status: 200, body: { ok: true, version: { id: 'v3' } } };
        },
      },
    };
    const { sent } = stubWorker(worker);
    const user = userEvent.setup();
    render(<History />);
    await act(loadConsole);
    const entry = within(screen.getByRole('article', { name: /^v1/ }));
    entry.getByRole('button', { name: 'Roll back to v1…' }).focus();
    await user.keyboard('{Enter}');
    const note = entry.getByLabelText('Note (optional)');
    await waitFor(() => expect(document.activeElement).toBe(note));
    await user.keyboard('back to 50/50');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Confirm roll back to v1');
    await user.keyboard(' ');
    await waitFor(() =>
      expect(document.getElementById('history-status')?.textContent).toBe(
        'Rolled back: v3 publishes the document of v1 again.',
      ),
    );
    expect(sent.filter(({ url }) => url === CONSOLE_API.rollback)).toEqual([
      {
        method: 'POST',
        url: CONSOLE_API.rollback,
        body: { base: 2, seq: 1, note: 'back to 50/50' },
      },
    ]);
    const v3 = within(await screen.findByRole('article', { name: /^v3/ }));
    expect(v3.getByText('Restores').nextSibling?.textContent).toBe('v1');
    await user.click(v3.getByText(/^Changes \(1\)/));
    expect(v3.getByText('Weight of lp17: 20 → 50')).toBeTruthy();
  });

  it('holds a roll back for a second person: no reason, nothing sent and the reason focused; or into the draft for review', async () => {
    const v1 = { ...head, seq: 1, id: 'v1', base: null, diff: [] };
    const { sent } = stubWorker({
      draft: sharedDraft(),
      approvalRequired: true,
      versions: { versions: [{ ...head, diff: [] }, v1] },
      calls: {
        [`POST ${CONSOLE_DRAFT_API.restore}`]: (body) =>
          saved(body, { document: liveDocument(), editors: ['marketer@example.com'] }),
      },
    });
    const user = userEvent.setup();
    render(<History />);
    await act(loadConsole);
    const entry = within(screen.getByRole('article', { name: /^v1/ }));
    await user.click(entry.getByRole('button', { name: 'Roll back to v1…' }));
    expect(entry.getByText(/^A second person approves each change here\./)).toBeTruthy();
    const reason = entry.getByLabelText('Reason (to break the glass)');
    await user.click(
      entry.getByRole('button', { name: 'Break the glass: Confirm roll back to v1' }),
    );
    expect(document.activeElement).toBe(reason);
    expect(sent.filter(({ url }) => url === CONSOLE_API.rollback)).toEqual([]);

    await user.click(entry.getByRole('button', { name: 'Put v1 in the draft for review' }));
    await waitFor(() =>
      expect(document.getElementById('history-status')?.textContent).toMatch(
        /^v1 is in the draft now: review its changes and send them for review;/,
      ),
    );
    expect(sent).toEqual([
      { method: 'POST', url: CONSOLE_DRAFT_API.restore, body: { revision: 4, seq: 1 } },
    ]);
  });
});
