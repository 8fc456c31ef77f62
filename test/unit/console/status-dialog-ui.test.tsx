// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Experiments } from '../../../console/experiments/Experiments';
import { $experimentsStatus } from '../../../console/experiments/stores/experiments';
import { $draft } from '../../../console/kit/stores/draft';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { $review } from '../../../console/kit/stores/review';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import { renderAreas } from './areas';
import { consoleState } from './fixtures';

/**
 * Pausing and resuming a running experiment from its card (console/experiments/StatusDialog.tsx),
 * and the list with none: what each dialog says the move does for whom, and the status it puts in
 * the draft, which the review then publishes. The same moves are walked by mouse in Chromium
 * against the worker (test/browser/console-by-mouse.test.ts).
 */

function stubWorker(state: ConsoleState) {
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === CONSOLE_API.state) return reply(200, state);
      if (url === CONSOLE_API.versions) return reply(200, { versions: [] });
      if (url === CONSOLE_API.check) return reply(200, { ok: true, diff: [], phase: null });
      return reply(404, { ok: false, error: 'bad_request' });
    }),
  );
}

async function openArea(state: ConsoleState = consoleState()) {
  stubWorker(state);
  renderAreas((live) => <Experiments state={live} />);
  await loadConsole();
  return within(await screen.findByRole('region', { name: 'Experiments' }));
}

const draftStatus = () => $draft.get()?.document.experiments.experiments['landing-all']?.status;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $experimentsStatus.set('');
  $review.set({ kind: 'idle' });
  $draft.set(null);
});

describe('pausing and resuming a running experiment', () => {
  it('says the exposed keep their variant while it is paused, then takes new visitors again', async () => {
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Pause All-in-one landing…' }));
    const pause = within(screen.getByRole('dialog', { name: 'Pause All-in-one landing?' }));
    pause.getByText('New visitors on route default stop entering; they see the route as it is.');
    pause.getByText(
      'The visitors already exposed keep their variant while it is paused. Resuming takes new visitors again; the results go on.',
    );
    fireEvent.click(pause.getByRole('button', { name: 'Pause All-in-one landing' }));
    await waitFor(() => expect(draftStatus()).toBe('paused'));

    fireEvent.click(area.getByRole('button', { name: 'Resume All-in-one landing…' }));
    const resume = within(screen.getByRole('dialog', { name: 'Resume All-in-one landing?' }));
    resume.getByText(
      'New visitors on route default who match its audience enter again, in the same variants and the same phase.',
    );
    fireEvent.click(resume.getByRole('button', { name: 'Resume All-in-one landing' }));
    await waitFor(() => expect(draftStatus()).toBe('running'));
  });
});

describe('the list of experiments', () => {
  it('says there is none yet, and the layers no experiment holds free, when the config holds none', async () => {
    const state = consoleState();
    state.live.experiments.experiments = {};
    const area = await openArea(state);
    area.getByText('No experiment yet: create one below.');
    const layers = within(area.getByRole('list', { name: 'Layers and their free space' }));
    for (const layer of ['landing', 'paywall']) {
      within(layers.getByRole('listitem', { name: `Layer ${layer}` })).getByText(
        'Free: the whole layer.',
      );
    }
  });
});
