import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { browserFetch } from '../../../scripts/load/journey';

/**
 * A load visitor on a connection the server closes without answering (scripts/load/journey.ts
 * sendAsBrowser): a GET is sent again on a new connection, as a browser does; a POST is not,
 * since sending it twice could do its work twice.
 */

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A server that drops the first request's connection unanswered, then answers each with 200. */
async function droppingFirst(): Promise<{ origin: string; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((request, response) => {
    seen.push(request.method ?? '');
    if (seen.length === 1) {
      request.socket.destroy();
      return;
    }
    response.end('ok');
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

describe('a connection closed before its answer', () => {
  it('is a GET sent once more, answered', async () => {
    const { origin, seen } = await droppingFirst();
    const { fetch } = browserFetch({ origin, address: '203.0.113.5' });
    const response = await fetch('/one_pager');
    expect(await response.text()).toBe('ok');
    expect(seen).toEqual(['GET', 'GET']);
  });

  it('is a POST failed, not sent again', async () => {
    const { origin, seen } = await droppingFirst();
    const { fetch } = browserFetch({ origin, address: '203.0.113.5' });
    await expect(fetch('/api/signup', { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(seen).toEqual(['POST']);
  });
});
