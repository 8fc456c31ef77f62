import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  DeeplinkResponse,
  PaymentSettingsResponse,
  PhoneInfoResponse,
  SignupResponse,
} from '../../shared/api/contract';

/**
 * A stand-in for the real product API (SPEC.md §7) on a local port, for the worker's PORTAL_URL:
 * it answers like the portal, or fails the way a real one can, as the test switches it.
 */
export type PortalBehaviour =
  /** Answers every call of §7 with a valid answer. */
  | 'healthy'
  /** Nothing listens on the port: connections are refused. */
  | 'down'
  /** Answers, but only after `slowMs`, past the worker's timeout. */
  | 'slow'
  /** 500 with a framework's error page body in JSON, not the §7 error shape. */
  | 'error_500'
  /** 500 in the §7 error shape, in the API's own words (not for visitors). */
  | 'error_500_words'
  /** 200 with an HTML body. */
  | 'not_json'
  /** 200 with JSON that is not the call's contract shape. */
  | 'wrong_shape';

export interface FakePortal {
  /** The base URL to give the worker as PORTAL_URL. */
  url: string;
  /** Every request seen, as `METHOD /path`. */
  requests: string[];
  behave(behaviour: PortalBehaviour): Promise<void>;
  stop(): Promise<void>;
}

const HEALTHY_SETTINGS: PaymentSettingsResponse = {
  stripe_publishable_key: 'pk_test_fake_portal',
  stripe_account_name: 'Fake portal',
  braintree_client_token: null,
  payment_gateway: 'stripe',
  request_three_d_secure: false,
};

function healthyAnswer(method: string, path: string, n: number): { status: number; body: unknown } {
  if (method === 'POST' && (path === '/signup' || path === '/authorize_social_via_access_token')) {
    const body: SignupResponse = {
      data: {
        access_token: `fake-portal-token-${n}-0123456789abcdef`,
        deeplink_token: `fake-deeplink-${n}`,
        entity: { external_user_id: `fake-user-${n}` },
      },
    };
    return { status: 200, body };
  }
  if (path === '/users/me/payments-settings') return { status: 200, body: HEALTHY_SETTINGS };
  if (path === '/users/me/deeplink-qr-code') {
    const body: DeeplinkResponse = {
      data: {
        short_deeplink: `https://fake-portal.example/l/${n}`,
        qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
      },
    };
    return { status: 200, body };
  }
  if (path === '/cf-country') return { status: 200, body: { country_code: 'GB' } };
  const phone = path.match(/^\/phone-number-info\/(.+)$/)?.[1];
  if (phone) {
    const body: PhoneInfoResponse = {
      data: {
        phone: decodeURIComponent(phone),
        valid: true,
        country: 'GB',
        type: 'MOBILE',
        carrier: 'Fake Mobile',
        city: 'London',
        timezone: 'Europe/London',
        location: { lat: 51.5074, lng: -0.1278 },
      },
    };
    return { status: 200, body };
  }
  return { status: 404, body: { errors: { messages: ['Not found'] } } };
}

/** What 'error_500_words' says: an internal failure no visitor may read. */
export const PORTAL_OWN_WORDS = 'SQLSTATE[08006] connection to db-3.internal lost';

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json') {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startFakePortal(options: { slowMs: number }): Promise<FakePortal> {
  let behaviour: PortalBehaviour = 'healthy';
  let count = 0;
  const requests: string[] = [];
  const held = new Set<NodeJS.Timeout>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://portal').pathname;
    requests.push(`${method} ${path}`);
    count += 1;
    const n = count;
    req.resume();
    req.on('end', () => {
      const healthy = healthyAnswer(method, path, n);
      switch (behaviour) {
        case 'slow': {
          const timer = setTimeout(() => {
            held.delete(timer);
            send(res, healthy.status, healthy.body);
          }, options.slowMs);
          held.add(timer);
          return;
        }
        case 'error_500':
          return send(res, 500, { message: 'Server Error' });
        case 'error_500_words':
          return send(res, 500, { errors: { messages: [PORTAL_OWN_WORDS] } });
        case 'not_json':
          return send(res, 200, '<!doctype html><title>Maintenance</title>', 'text/html');
        case 'wrong_shape':
          return send(res, 200, { result: 'ok', items: [] });
        default:
          return send(res, healthy.status, healthy.body);
      }
    });
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      server.closeAllConnections();
      server.close(() => resolve());
    });

  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async behave(next) {
      if (next === behaviour) return;
      if (behaviour === 'down') await listen(port);
      behaviour = next;
      if (next === 'down') await close();
    },
    async stop() {
      if (behaviour !== 'down') await close();
    },
  };
}
