// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContentVisualDiff } from '../../../console/content/ContentVisualDiff';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import { $live } from '../../../console/kit/stores/live';
import type { ScreenChange } from '../../../shared/console-api/config';
import {
  CONSOLE_CONTENT_API,
  type ContentPreviewRequest,
} from '../../../shared/console-api/content';
import { consoleState } from './fixtures';

/**
 * The review's "How the screens change" draws what the worker's check said (CheckAnswer.screens)
 * and nothing of its own: each screen as the route that serves it, live and after publishing,
 * even where the draft's content equals the live one (a route that starts showing a variant).
 */

const route = (id: string, content?: Record<string, string>) => ({
  id,
  flow: 'default',
  plans: null,
  upsellPlans: null,
  guidePlans: null,
  ...(content ? { content } : {}),
});

/** What the worker answered: a route's variant, and a screen no route walks yet. */
const SAID: ScreenChange[] = [
  {
    screen: 'one_pager',
    routes: ['tiktok', 'spring'],
    arm: null,
    live: { variant: null, route: route('tiktok') },
    draft: { variant: 'short', route: route('tiktok', { one_pager: 'short' }) },
    languages: ['en'],
  },
  {
    screen: 'one_pager_ai',
    routes: ['default'],
    arm: { experiment: 'ai-landing', variant: 'b' },
    live: { variant: 'b', route: route('default', { one_pager_ai: 'b' }) },
    draft: { variant: 'b', route: route('default', { one_pager_ai: 'b' }) },
    languages: ['de'],
  },
];

let asked: ContentPreviewRequest[];

beforeEach(() => {
  const state = consoleState();
  $live.set({ kind: 'ready', state });
  startDraft(state);
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      expect(url).toBe(CONSOLE_CONTENT_API.preview);
      asked.push(JSON.parse(String(init?.body)) as ContentPreviewRequest);
      return new Response(JSON.stringify({ ok: true, html: '<h1>drawn</h1>', issues: [] }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('how the screens change', () => {
  it('lists exactly the screens the worker said, each drawn as the route that serves it', async () => {
    render(<ContentVisualDiff screens={SAID} />);
    const diff = screen.getByText('How the screens change').parentElement!;
    const headings = within(diff).getAllByRole('heading', { level: 5 });
    expect(headings.map((heading) => heading.textContent)).toEqual([
      'Landing: classic (one_pager), variant short in English',
      'Landing: AI (one_pager_ai), variant b in German',
    ]);
    expect(within(diff).getByText(/^What visitors on routes tiktok and spring get/)).toBeTruthy();
    expect(
      within(diff).getByText(
        'What visitors on route default in variant b of ai-landing get, drawn as default serves it.',
      ),
    ).toBeTruthy();
    await vi.waitFor(() => expect(asked).toHaveLength(4));
    const live = $live.get();
    const liveContent = live.kind === 'ready' ? live.state.live.content : null;
    const drafted = $draft.get()?.document.content;
    // Each side is the worker's route, with the content it is drawn from: live, then the draft.
    expect(
      asked.map(({ screen: id, language, route: served, content }) => ({
        id,
        language,
        served,
        content,
      })),
    ).toEqual(
      expect.arrayContaining([
        { id: 'one_pager', language: 'en', served: SAID[0]!.live!.route, content: liveContent },
        { id: 'one_pager', language: 'en', served: SAID[0]!.draft.route, content: drafted },
        { id: 'one_pager_ai', language: 'de', served: SAID[1]!.live!.route, content: liveContent },
        { id: 'one_pager_ai', language: 'de', served: SAID[1]!.draft.route, content: drafted },
      ]),
    );
    expect(screen.getByText('Live now (the screen’s own content)')).toBeTruthy();
  });

  it('says nothing when the worker names no screen', () => {
    render(<ContentVisualDiff screens={[]} />);
    expect(screen.queryByText('How the screens change')).toBeNull();
  });
});
