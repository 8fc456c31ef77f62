import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { ContentEditor } from '../../../console/content/ContentEditor';
import {
  $contentAnnouncement,
  $contentCatalogue,
  $contentLanguages,
  $contentPreview,
  $contentSelection,
  $pictureLibrary,
} from '../../../console/content/stores/content-editor';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import { $live } from '../../../console/kit/stores/live';
import { openPage } from '../../../console/kit/stores/page';
import type { ContentDocument } from '../../../shared/config/content';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import {
  CONSOLE_CONTENT_API,
  type ContentPreviewRequest,
} from '../../../shared/console-api/content';
import { contentCatalogue } from '../../../worker/console/content-catalogue';
import { contentLanguageNotes } from '../../../worker/content/languages';
import { consoleState, OPENING_SELECTION, visitorGetsAnswer } from './fixtures';

/**
 * The worker as the content editor's happy-dom tests meet it: its catalogue (the bundle's
 * screens, sections and texts) and what it says each other language sees of an English change
 * are the worker's own functions; a preview is recorded and answered with a stand-in page;
 * `more` answers any other call first (the picture library's, the console's). The caller holds
 * every language (scripts/every-language.ts `holdEveryLanguage`), as the catalogue needs.
 */

/** A JSON answer as the worker sends it. */
export const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export type WorkerCall = (url: string, init?: RequestInit) => Response | undefined;

/** The preview requests the editor sent, in order; emptied by each stubContentWorker. */
const drawn: ContentPreviewRequest[] = [];

export function stubContentWorker(more: WorkerCall = () => undefined) {
  drawn.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const answered = more(url, init);
      if (answered) return answered;
      if (url === CONSOLE_CONTENT_API.catalogue)
        return reply(await contentCatalogue({}, { assets: undefined }));
      if (url === CONSOLE_API.visitorGets) {
        return reply(visitorGetsAnswer('default', ['one_pager', 'searching', 'signup']));
      }
      if (url === CONSOLE_CONTENT_API.preview) {
        drawn.push(JSON.parse(String(init?.body)) as ContentPreviewRequest);
        return reply({ ok: true, html: '<h1>drawn</h1>', issues: [] });
      }
      if (url === CONSOLE_CONTENT_API.languages) {
        const { content } = JSON.parse(String(init?.body)) as { content: ContentDocument };
        return reply({ ok: true, languages: contentLanguageNotes(content) });
      }
      return reply({ ok: false, error: 'not_found' }, 404);
    }),
  );
}

/** The content editor's stores as the console opens it. */
function resetContentEditor() {
  $contentCatalogue.set({ kind: 'loading' });
  $contentPreview.set({ kind: 'idle' });
  $contentLanguages.set([]);
  $contentAnnouncement.set('');
  $contentSelection.set(OPENING_SELECTION);
  $pictureLibrary.set({ kind: 'loading' });
}

/** The last preview the editor asked the worker for, once it has asked one matching `like`. */
export async function lastDrawn(like: Record<string, unknown>): Promise<ContentPreviewRequest> {
  await waitFor(() => expect(drawn.at(-1)).toMatchObject(like));
  return drawn.at(-1) as ContentPreviewRequest;
}

/** The Content page on the live `state`, its draft started from it, once its pickers are in. */
export async function openEditor(state: ConsoleState = consoleState()) {
  $live.set({ kind: 'ready', state });
  startDraft(state);
  render(<ContentEditor />);
  const content = within(await screen.findByRole('region', { name: 'Content' }));
  await content.findByLabelText('Screen', { exact: true });
  return content;
}

/**
 * Each test of the file on a fresh editor and worker (`more` as stubContentWorker's), drawn
 * afresh and the fetch given back after it.
 */
export function eachOnAFreshEditor(more?: WorkerCall) {
  beforeEach(() => {
    resetContentEditor();
    stubContentWorker(more);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/**
 * Each test of the file on the console as the built worker starts it, live and in the draft: no
 * experiment yet (the fixture's own would hold the landing layer and the default route), and on
 * the Overview again after it.
 */
export function eachOnTheBuiltWorkersConsole() {
  eachOnAFreshEditor();
  beforeEach(() => {
    const state = consoleState();
    state.live.experiments = { ...state.live.experiments, experiments: {} };
    $live.set({ kind: 'ready', state });
    startDraft(state);
  });
  afterEach(() => {
    openPage('overview');
    $draft.set(null);
  });
}
