import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import developmentWorker from '../../../worker/dev';
import { FRESH_APP_PATH } from '../../../worker/dev/fresh-app-route';
import { ORIGIN, putConfig } from '../fetch-app';

/**
 * The development entry's app keeps the last good config for as long as its isolate lives, as
 * production's does; `POST /__dev/fresh-app` forgets it, as a new isolate would, for the browser
 * tests' shared workerd (scripts/built-worker.ts).
 */

async function send(
  path: string,
  init: { method?: string } = {},
  bindings: Partial<Cloudflare.Env> = {},
) {
  const ctx = createExecutionContext();
  const response = await developmentWorker.fetch(
    new Request(`${ORIGIN}${path}`, init),
    { ...env, ...bindings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** The split variant the landing tells its scripts a first visitor is in. */
async function drawnVariant(): Promise<string | undefined> {
  const html = await (await send('/')).text();
  return html.match(/"variant":"([^"]+)"/)?.[1];
}

const LEFTOVER_SPLIT = {
  version: 'left-behind',
  defaultVariant: 'leftover',
  variants: { leftover: { weight: 1, flow: 'default' } },
};

describe('POST /__dev/fresh-app', () => {
  // The entry's app outlives the file in the project's shared workerd: leave it as found.
  afterEach(() => send(FRESH_APP_PATH, { method: 'POST' }));

  it('forgets the config the app last read, as a new isolate would', async () => {
    await putConfig('split', LEFTOVER_SPLIT);
    expect(await drawnVariant()).toBe('leftover');
    await env.FUNNEL_CONFIG.delete('split');
    // Still the last good split: a KV outage must not change what visitors get.
    expect(await drawnVariant()).toBe('leftover');

    const answer = await send(FRESH_APP_PATH, { method: 'POST' });
    expect(answer.status).toBe(204);
    expect(await drawnVariant()).toBe('default');
  });

  it('is not there for a GET, nor outside development', async () => {
    await putConfig('split', LEFTOVER_SPLIT);
    expect(await drawnVariant()).toBe('leftover');
    await env.FUNNEL_CONFIG.delete('split');

    expect((await send(FRESH_APP_PATH)).status).toBe(404);
    const staging = await send(FRESH_APP_PATH, { method: 'POST' }, { ENVIRONMENT: 'staging' });
    expect(staging.status).not.toBe(204);
    expect(await drawnVariant()).toBe('leftover');
  });
});
