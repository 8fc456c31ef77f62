// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $history } from '../../../console/kit/stores/history';
import { $sharedDraft, type SharedDraftState } from '../../../console/kit/stores/shared-draft';
import { Team } from '../../../console/team/Team';
import type { VersionSummary } from '../../../shared/console-api/versions';

/**
 * The console's Team page (console/team/Team.tsx): who edits the shared draft and the review it
 * waits for, who published, asked and approved in the history, then the tools and agents. Drawn
 * from the stores the console loads anyway; the tools' own call is stubbed to fail, which that
 * section says (tools-ui.test.tsx walks it).
 */

const DRAFT: SharedDraftState = {
  kind: 'shared',
  revision: 4,
  editors: ['ada@example.com', 'token:copy-agent'],
  editedBy: 'ada@example.com',
  at: '2026-12-01T09:00:00.000Z',
  review: {
    requestedBy: 'ada@example.com',
    note: 'new price test',
    at: '2026-12-01T09:05:00.000Z',
  },
  approvalRequired: true,
  saving: 'saved',
  failure: null,
  clash: null,
  merged: [],
};

function version(seq: number, fields: Partial<VersionSummary>): VersionSummary & { diff: [] } {
  return {
    seq,
    id: `v${seq}`,
    at: `2026-11-${10 + seq}T10:00:00.000Z`,
    author: 'ada@example.com',
    note: '',
    base: seq - 1,
    source: 'console',
    phase: 1,
    diff: [],
    ...fields,
  } as VersionSummary & { diff: [] };
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
  $sharedDraft.set(DRAFT);
  $history.set({
    kind: 'ready',
    versions: [
      version(3, {
        author: 'grace@example.com',
        requester: 'ada@example.com',
        approver: 'bob@example.com',
      }),
      version(2, {}),
      version(1, { author: 'grace@example.com' }),
    ],
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Team page', () => {
  it('says who edits the draft and whose approval its review waits for', () => {
    render(<Team />);
    const draft = screen.getByRole('region', { name: 'The draft now' });
    expect(draft.textContent).toContain(
      'Edited by ada@example.com, token:copy-agent; last saved by ada@example.com',
    );
    expect(draft.textContent).toContain('ada@example.com asked for a review');
    expect(draft.textContent).toContain('waiting for someone who did not edit it to approve it');
    expect(within(draft).getByRole('link', { name: 'approve it' }).getAttribute('href')).toBe(
      '/console/publish',
    );
  });

  it('lists who published, asked and approved, the most recent first', () => {
    render(<Team />);
    const people = within(screen.getByRole('region', { name: 'Who published' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent?.replace(/; last .*$/, ''));
    expect(people).toEqual([
      'ada@example.com: 1 publish, 1 review asked',
      'bob@example.com: 1 approval',
      'grace@example.com: 2 publishes',
    ]);
  });

  it('says when the draft is ready to publish, and keeps the tools and agents below', async () => {
    $sharedDraft.set({
      ...DRAFT,
      review: {
        ...(DRAFT.kind === 'shared' ? DRAFT.review! : ({} as never)),
        approvedBy: 'bob@example.com',
      },
    } as SharedDraftState);
    render(<Team />);
    expect(screen.getByRole('region', { name: 'The draft now' }).textContent).toContain(
      'bob@example.com approved it. It is ready to publish.',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Tools and agents' })).toBeTruthy();
  });
});
