import { parseArgs } from 'node:util';
import type { SmokeTarget } from './checks';

/** The arguments of `npm run smoke` (scripts/smoke.ts). */

const LOCAL_WORKER = 'http://127.0.0.1:8787';

export const SMOKE_USAGE = `Usage: npm run smoke -- --url <origin> [--deployed]

Checks a running worker as a visitor and an operator would right after a deploy
(docs/operate.md, "After a deploy"): the landing renders with its islands and CSP, an /api call
reaches the product API, the collector takes a beacon batch (one event dated past its window, so
nothing is kept), and the console refuses a stranger. Exits 1 when any check fails.

Options:
  --url <origin>      the worker (default ${LOCAL_WORKER}, npm start's)
  --deployed          hold a local address to a deployed worker's rules: its console must refuse
                      whoever did not sign in through Cloudflare Access (npm start's is open);
                      implied for any address but localhost, 127.0.0.1 and [::1]
  --help              show this text`;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export type SmokeArgs =
  | { kind: 'run'; target: SmokeTarget }
  | { kind: 'help' }
  | { kind: 'usage-error'; error: string };

/** `argv` after `npm run smoke --`. */
export function parseSmokeArgs(argv: readonly string[]): SmokeArgs {
  let values: { url?: string; deployed?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        deployed: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'usage-error', error: (error as Error).message.split('. ')[0] ?? '' };
  }
  if (values.help) return { kind: 'help' };
  const text = values.url ?? LOCAL_WORKER;
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return { kind: 'usage-error', error: `--url takes an http(s) origin, not "${text}"` };
  }
  const development = !values.deployed && LOCAL_HOSTS.has(url.hostname);
  return { kind: 'run', target: { origin: url.origin, development } };
}
