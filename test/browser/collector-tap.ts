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
  /** Every event POSTed to /e and passed on, in the order the batches arrived. */
  sent: CollectedEvent[];
  /** The same events batch by batch: what each `POST /e` carried. */
  batches: CollectedEvent[][];
  /**
   * While true, each `POST /e` is read and then lost on the way: its connection is cut before
   * the worker sees it, as a network that drops a beacon does. So is every later try of that
   * request (Chromium tries a cut one again a few times), by its batch id (`?b=`).
   */
  dropping: boolean;
  /** The events of the batches lost so. */
  dropped: CollectedEvent[];
  stop(): Promise<void>;
}

async function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function eventsOf(body: Buffer): CollectedEvent[] {
  try {
    return (JSON.parse(body.toString('utf8')) as EventBatch).events;
  } catch {
    // Not a batch: the collector refuses it, and the test sees the refusal.
    return [];
  }
}

export async function startCollectorTap(worker: URL): Promise<CollectorTap> {
  const control = { dropping: false, dropped: [] as CollectedEvent[] };
  const lostBatches = new Set<string>();
  const sent: CollectedEvent[] = [];
  const batches: CollectedEvent[][] = [];
  const server = createServer(async (incoming, answer) => {
    const body = await bodyOf(incoming);
    const target = new URL(incoming.url ?? '/', worker);
    if (incoming.method === 'POST' && target.pathname === '/e') {
      const batch = target.searchParams.get('b') ?? '';
      if (control.dropping) lostBatches.add(batch);
      if (lostBatches.has(batch)) {
        control.dropped.push(...eventsOf(body));
        answer.destroy();
        return;
      }
      const events = eventsOf(body);
      sent.push(...events);
      batches.push(events);
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
    batches,
    get dropping() {
      return control.dropping;
    },
    set dropping(value: boolean) {
      control.dropping = value;
    },
    dropped: control.dropped,
    stop: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
