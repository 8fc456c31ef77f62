import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { TRANSLATION_KEYS } from '../../../worker/translations/source';
import { freshApp } from '../fetch-app';

/** The config KV of this test run, recording the key of every read. */
function recordingKv(): { kv: KVNamespace; read: string[] } {
  const read: string[] = [];
  const kv = new Proxy(env.FUNNEL_CONFIG, {
    get(target, property, receiver) {
      const member = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        if (property === 'get' || property === 'getWithMetadata') read.push(String(args[0]));
        return member.apply(target, args);
      };
    },
  });
  return { kv, read };
}

describe('the API skips the page-only middleware', () => {
  it('an /api call reads no translations from KV, a page does', async () => {
    const { kv, read } = recordingKv();
    const fetchApp = freshApp({}, { FUNNEL_CONFIG: kv, CONFIG_CACHE_TTL_MS: '0' });

    const api = await fetchApp('/api/cf-country', { headers: { 'cf-ipcountry': 'DE' } });
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ country_code: 'DE' });
    expect(read).not.toContain(TRANSLATION_KEYS.manifest);

    const page = await fetchApp('/');
    expect(page.status).toBe(200);
    await page.text();
    expect(read).toContain(TRANSLATION_KEYS.manifest);
  });
});
