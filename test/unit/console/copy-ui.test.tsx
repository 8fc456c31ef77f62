// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Copy } from '../../../console/copy/Copy';
import { CopyHistory } from '../../../console/copy/CopyHistory';
import {
  $copy,
  $copyEdits,
  $copyHistory,
  $copyHistoryStatus,
  $copyPreview,
  $copyReview,
  $copySelected,
  $copyStatus,
  loadCopy,
} from '../../../console/copy/stores/copy';
import type { CopyDocument } from '../../../shared/config/copy';
import {
  CONSOLE_COPY_API,
  type CopyState,
  type CopyVersionsAnswer,
} from '../../../shared/console-api/copy';
import { checkCopyDocument, diffCopy } from '../../../worker/translations/copy-document';

/**
 * The console's Copy area and its copy versions in the History (console/copy/), against a worker
 * that checks and diffs as the real one does (worker/translations/copy-document.ts): a text found
 * by its English words, its Spanish edited and shown as it will read, previewed, reviewed and
 * published with a live German change kept, then rolled back by keyboard; a lost placeholder
 * flagged while typing and refused at the review. What the worker then stores and serves is
 * test/worker/console/copy.test.ts's.
 */

const TITLE = 'screens.one_pager.title';
const PRICE = 'plans.catalogue.monthly.disclaimer';
const BUNDLED_TITLE = 'Descubre dónde están tus seres queridos';
const NEW_TITLE = '¡Encuentra a los tuyos en un minuto!';
const GERMAN_BUTTON = { de: { continue: 'Los geht’s' } };
const PREVIEW_LINK = '/console/preview/default?custom_lng=es';

/** Three texts of the bundled files, as the worker lists them (English, German, Spanish). */
function copyState(live: CopyDocument, head: CopyState['head']): CopyState {
  return {
    languages: [
      { code: 'en', name: 'English' },
      { code: 'de', name: 'German' },
      { code: 'es', name: 'Spanish' },
    ],
    areas: [
      { id: 'common', shows: 'every page' },
      { id: 'plans', shows: 'the plans' },
    ],
    keys: [
      {
        key: 'continue',
        area: 'common',
        english: 'Continue',
        bundled: { de: 'Weiter', es: 'Continuar' },
      },
      {
        key: TITLE,
        area: 'common',
        english: 'Find out where your loved ones are',
        bundled: { de: 'Finde heraus, wo deine Liebsten sind', es: BUNDLED_TITLE },
      },
      {
        key: PRICE,
        area: 'plans',
        english: '{{price}} every month. Cancel anytime.',
        bundled: {
          de: '{{price}} pro Monat. Jederzeit kündbar.',
          es: '{{price}} al mes. Cancela cuando quieras.',
        },
      },
    ],
    live,
    head,
    drift: null,
    outdated: [],
    pages: { es: PREVIEW_LINK },
  };
}

type Version = CopyVersionsAnswer['versions'][number] & { copy: CopyDocument };

/**
 * The worker as the Copy area sees it, copy c1 (a German button) live: it checks and diffs each
 * draft with the worker's own functions, publishes and rolls back as new versions; `sent` holds
 * every POST.
 */
function stubWorker() {
  const versions: Version[] = [];
  const sent: { url: string; body: Record<string, unknown> }[] = [];
  const live = () => versions[0]?.copy ?? {};
  const head = () => {
    const { copy: _, diff: __, ...summary } = versions[0]!;
    return summary;
  };
  const add = (copy: CopyDocument, note: string, restores?: number) => {
    const seq = versions.length + 1;
    versions.unshift({
      seq,
      id: `c${seq}`,
      at: '2026-11-22T09:00:00.000Z',
      author: 'marketer@example.com',
      note,
      base: seq === 1 ? null : seq - 1,
      source: restores === undefined ? 'console' : 'rollback',
      ...(restores === undefined ? {} : { restores }),
      timestamp: seq,
      diff: diffCopy(live(), copy),
      copy,
    });
    return { ok: true, version: head() };
  };
  add(GERMAN_BUTTON, 'German button');
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url === CONSOLE_COPY_API.state) return reply(200, copyState(live(), head()));
    if (url === CONSOLE_COPY_API.versions) {
      return reply(200, { versions: versions.map(({ copy: _, ...version }) => version) });
    }
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    sent.push({ url, body });
    if (url === CONSOLE_COPY_API.rollback) {
      const restored = versions.find((version) => version.seq === body.seq)!;
      return reply(200, add(restored.copy, String(body.note), restored.seq));
    }
    const checked = checkCopyDocument(body.copy);
    if (!checked.ok)
      return reply(400, { ok: false, error: 'invalid_config', errors: checked.errors });
    if (url === CONSOLE_COPY_API.check) {
      return reply(200, { ok: true, diff: diffCopy(live(), checked.copy), languages: [] });
    }
    if (url === CONSOLE_COPY_API.preview)
      return reply(200, { ok: true, pages: { es: PREVIEW_LINK } });
    return reply(200, add(checked.copy, String(body.note)));
  });
  return { sent, live };
}

async function openCopy() {
  render(
    <>
      <Copy />
      <CopyHistory />
    </>,
  );
  await act(loadCopy);
  return within(screen.getByRole('region', { name: 'Copy' }));
}

/**
 * The Copy area's stores as a fresh console holds them, before each test and after: the unit
 * files share a thread's modules, and another file may leave edits in the draft
 * (language-notes.test.tsx writes a German one), which the review would then list.
 */
function freshCopy(): void {
  $copy.set({ kind: 'loading' });
  $copyEdits.set({});
  $copyHistory.set({ kind: 'loading' });
  $copySelected.set(null);
  $copyReview.set({ kind: 'idle' });
  $copyPreview.set({ kind: 'idle' });
  $copyStatus.set('');
  $copyHistoryStatus.set('');
}
beforeEach(freshCopy);
afterEach(() => {
  cleanup();
  freshCopy();
  vi.unstubAllGlobals();
});

describe('the Copy area', () => {
  it('finds a text by its English, edits the Spanish, publishes it over the live German and rolls it back by keyboard', async () => {
    const { sent, live } = stubWorker();
    const user = userEvent.setup();
    const copy = await openCopy();
    expect(copy.getByText(/^Live copy: c1, published /)).toBeTruthy();

    // Found by the English words a marketer sees on the page.
    await user.type(copy.getByLabelText('Find a text'), 'where your loved ones');
    await user.click(copy.getByRole('button', { name: /Find out where your loved ones are/ }));
    const spanish = copy.getByLabelText('Spanish (es)');
    expect(spanish).toHaveProperty('value', BUNDLED_TITLE);
    await user.clear(spanish);
    await user.type(spanish, NEW_TITLE);
    // As it will show, while typing; nothing is sent yet.
    const editor = within(copy.getByRole('article', { name: TITLE }));
    expect(document.getElementById(`copy:es:${TITLE}:shows`)?.textContent).toBe(
      `Shows as: ${NEW_TITLE}`,
    );
    expect(sent).toEqual([]);

    // The draft handed over for the preview, with the live German kept; its link is the worker's.
    await user.click(editor.getByRole('button', { name: 'Preview the draft in Spanish' }));
    const draftLink = await editor.findByRole('link', {
      name: 'Open the Spanish preview with your draft',
    });
    expect(draftLink.getAttribute('href')).toBe(PREVIEW_LINK);
    const draft = { ...GERMAN_BUTTON, es: { [TITLE]: NEW_TITLE } };
    expect(sent).toEqual([{ url: CONSOLE_COPY_API.preview, body: { copy: draft } }]);

    await user.click(copy.getByRole('button', { name: 'Review copy changes (1)' }));
    await copy.findByRole('row', { name: `Spanish the text in code ${NEW_TITLE}` });
    await user.type(copy.getByLabelText('Copy note (optional)'), 'a shorter promise');
    await user.click(copy.getByRole('button', { name: 'Publish copy' }));
    await waitFor(() =>
      expect(document.getElementById('copy-status')?.textContent).toMatch(/^Published c2\./),
    );
    expect(sent.at(-1)).toEqual({
      url: CONSOLE_COPY_API.publish,
      body: { base: 1, copy: draft, note: 'a shorter promise' },
    });
    // The German change of c1 is carried over, not lost.
    expect(live()).toEqual(draft);

    // In the History: the note, the diff; then roll back to c1 with its confirm step.
    const history = within(screen.getByRole('region', { name: 'Copy versions' }));
    const c2 = within(history.getByRole('article', { name: 'Copy c2 live' }));
    expect(c2.getByText('a shorter promise')).toBeTruthy();
    await user.click(c2.getByText(/^Changes \(1\)/));
    expect(c2.getByRole('row', { name: `Spanish the text in code ${NEW_TITLE}` })).toBeTruthy();
    const c1 = within(history.getByRole('article', { name: 'Copy c1' }));
    // By keyboard: opening the confirm step moves focus to its note, Cancel back to the opener.
    const opener = c1.getByRole('button', { name: 'Roll back copy to c1…' });
    opener.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(c1.getByLabelText('Note (optional)')));
    await user.keyboard('back to the bundled title');
    c1.getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Enter}');
    const reopener = c1.getByRole('button', { name: 'Roll back copy to c1…' });
    expect(document.activeElement).toBe(reopener);
    await user.keyboard('{Enter}');
    await user.click(c1.getByRole('button', { name: 'Confirm copy roll back to c1' }));
    await waitFor(() =>
      expect(document.getElementById('copy-history-status')?.textContent).toBe(
        'Rolled back: c3 publishes the copy of c1 again.',
      ),
    );
    expect(sent.at(-1)).toEqual({
      url: CONSOLE_COPY_API.rollback,
      body: { base: 2, seq: 1, note: 'back to the bundled title' },
    });
    const c3 = within(history.getByRole('article', { name: 'Copy c3 live' }));
    expect(c3.getByText('Restores').nextSibling?.textContent).toBe('c1');
    expect(live()).toEqual(GERMAN_BUTTON);
  });

  it('flags a lost placeholder while typing, and shows the worker’s refusal at review', async () => {
    const { sent } = stubWorker();
    const user = userEvent.setup();
    const copy = await openCopy();
    await user.type(copy.getByLabelText('Find a text'), 'every month. Cancel anytime');
    await user.click(copy.getByRole('button', { name: new RegExp(PRICE.replaceAll('.', '\\.')) }));
    const spanish = copy.getByLabelText('Spanish (es)');
    expect((spanish as HTMLTextAreaElement).value).toContain('{{price}}');
    // The example value fills the placeholder in the preview.
    expect(document.getElementById(`copy:es:${PRICE}:shows`)?.textContent).toMatch(
      /^Shows as: €9\.99/,
    );
    await user.clear(spanish);
    await user.type(spanish, 'Cada mes. Cancela cuando quieras.');
    expect(copy.getByText('lacks {{price}}')).toBeTruthy();
    expect(spanish.getAttribute('aria-invalid')).toBe('true');
    await user.click(copy.getByRole('button', { name: /^Review copy changes/ }));
    const alert = await copy.findByRole('alert');
    expect(alert.textContent).toContain('es.plans.catalogue.monthly.disclaimer: lacks {{price}}');
    expect(copy.queryByRole('button', { name: 'Publish copy' })).toBeNull();
    expect(sent.map(({ url }) => url)).toEqual([CONSOLE_COPY_API.check]);
  });
});
