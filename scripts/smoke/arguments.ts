import { parseArgs } from 'node:util';
import { isPlanId } from '../../shared/plans/catalogue';
import { httpUrlOf } from '../cli';
import type { SmokeTarget } from './checks';

/** The arguments of `npm run smoke` (scripts/smoke.ts). */

const LOCAL_WORKER = 'http://127.0.0.1:8787';

export const SMOKE_USAGE = `Usage: npm run smoke -- --url <origin> [--deployed]

Checks a running worker as a visitor and an operator would right after a deploy
(docs/operate.md, "After a deploy"): the landing renders with its islands and CSP, an /api call
reaches the product API, the collector takes a beacon, a purchase goes through in the payment
providers' test mode (never with live keys: then it is skipped), the beacon's event and the
purchase reach the event archive, and the console refuses a stranger. Every request says it is
the smoke, so the run counts in no result. Exits 1 when any check fails.

Options:
  --url <origin>      the worker (default ${LOCAL_WORKER}, npm start's)
  --plan <id>         the plan the purchase buys (default: the default flow's main plan in the
                      currency of the country the worker sees)
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
  let values: { url?: string; plan?: string; deployed?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        plan: { type: 'string' },
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
  const url = httpUrlOf(text);
  if (url === null) {
    return { kind: 'usage-error', error: `--url takes an http(s) origin, not "${text}"` };
  }
  const development = !values.deployed && LOCAL_HOSTS.has(url.hostname);
  if (values.plan !== undefined && !isPlanId(values.plan)) {
    return {
      kind: 'usage-error',
      error: `--plan takes a plan id of the catalogue, not "${values.plan}"`,
    };
  }
  const plan = values.plan === undefined ? {} : { planId: values.plan };
  return { kind: 'run', target: { origin: url.origin, development, ...plan } };
}
