import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * Miniflare opens a WebSocket without offering permessage-deflate. vitest-pool-workers reaches
 * each workerd of the worker tests over such a socket (a Durable Object's fetch with `Upgrade:
 * websocket`, answered through Miniflare's own fetch); as released, every frame on it was
 * deflated in Vitest's process and inflated in workerd, and back: 13-19 CPU-seconds of Vitest's
 * 37 in a run of the worker project, for bytes that never leave this machine.
 * patches/miniflare+4.20260426.0.patch (applied by npm install's postinstall) turns it off;
 * this fails if the patch is lost.
 */

let server: ReturnType<typeof createServer>;
let upgrades: IncomingHttpHeaders[];

beforeAll(async () => {
  upgrades = [];
  server = createServer();
  // Records what the client asked for and refuses it: the offer is in the request's headers.
  server.on('upgrade', (request, socket) => {
    upgrades.push(request.headers);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('offers no permessage-deflate when it opens a WebSocket', async () => {
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/socket`, {
    headers: { Upgrade: 'websocket' },
  });
  expect(response.status).toBe(403);
  expect(upgrades).toHaveLength(1);
  expect(upgrades[0]?.upgrade).toBe('websocket');
  expect(upgrades[0]?.['sec-websocket-extensions']).toBeUndefined();
});
