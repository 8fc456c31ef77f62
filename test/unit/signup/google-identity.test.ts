// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BUTTON_PRELOAD_DELAY_MS,
  GIS_SCRIPT_URL,
  GOOGLE_BUTTON_WIDTH,
  type GoogleAccountsId,
  googleButtonWidth,
  SCRIPT_READY_GIVE_UP_MS,
  SCRIPT_READY_POLL_MS,
  startGoogleButton,
} from '../../../islands/signup/google-identity';
import { $googleButton } from '../../../islands/stores/google-button';

/** A stand-in for GIS: the script's load is settled by the test, the API appears when it runs. */
function fakeGis() {
  let api: GoogleAccountsId | undefined;
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const loadScript = vi.fn(
    (_src: string) =>
      new Promise<void>((resolve, reject) => {
        settle = { resolve, reject };
      }),
  );
  const gis = {
    initialize: vi.fn<GoogleAccountsId['initialize']>(),
    renderButton: vi.fn<GoogleAccountsId['renderButton']>(),
  };
  return {
    gis,
    loadScript,
    google: () => api,
    /** The script ran: its API is there and its load event fires. */
    scriptRuns() {
      api = gis;
      settle?.resolve();
    },
    /** The script loaded but defines no API (blocked or broken). */
    scriptLoadsEmpty: () => settle?.resolve(),
    scriptFails: () => settle?.reject(new Error('blocked')),
  };
}

let stop: () => void = () => {};
const onCredential = vi.fn();

function start(clientId: string, fake: ReturnType<typeof fakeGis>) {
  stop = startGoogleButton({
    clientId,
    container: document.createElement('div'),
    locale: 'de',
    onCredential,
    loadScript: fake.loadScript,
    google: fake.google,
  });
}

const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  stop();
  vi.useRealTimers();
  onCredential.mockReset();
});

describe('the Google button state machine (SPEC.md §4, §9)', () => {
  it('without a client id it is not configured and loads nothing', async () => {
    const fake = fakeGis();
    start('  ', fake);
    await tick(5000);
    expect($googleButton.get()).toEqual({
      script: 'idle',
      phase: 'not_ready',
      problem: 'not_configured',
    });
    expect(fake.loadScript).not.toHaveBeenCalled();
  });

  it('loads GIS, is script-ready within one 100 ms poll, preloads the button 1 s later', async () => {
    const fake = fakeGis();
    start('client-1.apps.googleusercontent.com', fake);
    expect(fake.loadScript).toHaveBeenCalledWith(GIS_SCRIPT_URL);
    expect($googleButton.get()).toMatchObject({ script: 'loading', phase: 'not_ready' });

    // Four polls have found nothing yet; the script runs right after the fourth.
    await tick(4 * SCRIPT_READY_POLL_MS);
    fake.scriptRuns();
    await tick(0);
    expect($googleButton.get()).toMatchObject({ script: 'ready', phase: 'not_ready' });
    await tick(SCRIPT_READY_POLL_MS);
    expect($googleButton.get()).toMatchObject({ phase: 'script_ready', problem: null });
    expect(fake.gis.initialize).toHaveBeenCalledWith(
      expect.objectContaining({ client_id: 'client-1.apps.googleusercontent.com' }),
    );
    expect(fake.gis.renderButton).not.toHaveBeenCalled();

    await tick(BUTTON_PRELOAD_DELAY_MS - 1);
    expect(fake.gis.renderButton).not.toHaveBeenCalled();
    expect($googleButton.get().phase).toBe('script_ready');
    await tick(1);
    expect($googleButton.get().phase).toBe('preloaded');
    expect(fake.gis.renderButton).toHaveBeenCalledWith(
      expect.any(HTMLElement),
      expect.objectContaining({ width: GOOGLE_BUTTON_WIDTH, text: 'continue_with', locale: 'de' }),
    );
  });

  it('hands GIS’s answer to the callback', async () => {
    const fake = fakeGis();
    start('client-1', fake);
    fake.scriptRuns();
    await tick(SCRIPT_READY_POLL_MS);
    const { callback } = fake.gis.initialize.mock.calls[0]![0];
    callback({ credential: 'jwt', select_by: 'btn' });
    expect(onCredential).toHaveBeenCalledWith({ credential: 'jwt', select_by: 'btn' });
  });

  it('stays not ready while the script is loading', async () => {
    const fake = fakeGis();
    start('client-1', fake);
    await tick(30_000);
    expect($googleButton.get()).toEqual({ script: 'loading', phase: 'not_ready', problem: null });
  });

  it('a script that cannot load is "not available"', async () => {
    const fake = fakeGis();
    start('client-1', fake);
    await tick(200);
    fake.scriptFails();
    await tick(0);
    expect($googleButton.get()).toEqual({
      script: 'error',
      phase: 'not_ready',
      problem: 'not_available',
    });
    await tick(2000);
    expect(fake.gis.initialize).not.toHaveBeenCalled();
  });

  it('a script that ran without offering its API is "not available" after a while', async () => {
    const fake = fakeGis();
    start('client-1', fake);
    fake.scriptLoadsEmpty();
    await tick(SCRIPT_READY_GIVE_UP_MS - SCRIPT_READY_POLL_MS);
    expect($googleButton.get().problem).toBeNull();
    await tick(SCRIPT_READY_POLL_MS);
    expect($googleButton.get().problem).toBe('not_available');
  });

  it('initialize throwing is "failed to initialize", and no button is rendered', async () => {
    const fake = fakeGis();
    fake.gis.initialize.mockImplementation(() => {
      throw new Error('Invalid client id');
    });
    start('client-1', fake);
    fake.scriptRuns();
    await tick(SCRIPT_READY_POLL_MS + BUTTON_PRELOAD_DELAY_MS * 2);
    expect($googleButton.get()).toMatchObject({ phase: 'not_ready', problem: 'init_failed' });
    expect(fake.gis.renderButton).not.toHaveBeenCalled();
  });

  it('stopping before the preload delay renders nothing', async () => {
    const fake = fakeGis();
    start('client-1', fake);
    fake.scriptRuns();
    await tick(SCRIPT_READY_POLL_MS);
    stop();
    await tick(BUTTON_PRELOAD_DELAY_MS * 2);
    expect(fake.gis.renderButton).not.toHaveBeenCalled();
  });
});

describe('googleButtonWidth (SPEC.md §9: 343 px)', () => {
  it('is 343 where there is room, and no wider than its place on a narrow phone', () => {
    expect(googleButtonWidth(343)).toBe(343);
    expect(googleButtonWidth(600)).toBe(343);
    expect(googleButtonWidth(318.6)).toBe(318);
    // Not laid out yet (no width known): the spec's width.
    expect(googleButtonWidth(0)).toBe(343);
  });
});
