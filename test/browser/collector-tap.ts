import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CollectedEvent, EventBatch } from '../../shared/analytics/batch';

/**
 * What the browser really sends to the collector, beacons included: Playwright's routes and
 * request events, and a page's CDP session, never see a beacon sent as its page goes away.
 * So the visitor talks to the worker through this proxy on another port, which passes every
 * request and answer through unchanged (the Host header too: the worker sees its site where
 * the browser does) and reads each `POST /e` body on the way.
 */
export interface CollectorTap {
  /** Where the visitor goes instead of the worker. */
  url: URL;
  /** Every event POSTed to /e, in the order the batches arrived. */
  sent: CollectedEvent[];
  stop(): Promise<void>;
}

async function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startCollectorTap(worker: URL): Promise<CollectorTap> {
  const sent: CollectedEvent[] = [];
  const server = createServer(async (incoming, answer) => {
    const body = await bodyOf(incoming);
    if (incoming.method === 'POST' && new URL(incoming.url ?? '/', worker).pathname === '/e') {
      try {
        sent.push(...(JSON.parse(body.toString('utf8')) as EventBatch).events);
      } catch {
        // Not a batch: the collector refuses it, and the test sees the refusal.
      }
    }
    const upstream = forward(
      {
        host: worker.hostname,
        port: worker.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    upstream.on('error', () => answer.destroy());
    upstream.end(body);
  });
  await new Promise<void>((listening) => server.listen(0, 'localhost', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://localhost:${port}/`),
    sent,
    stop: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
