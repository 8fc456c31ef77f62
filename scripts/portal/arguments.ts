import {
  FAULT_CALLS,
  type FaultCall,
  isFaultCall,
  isKitFaultCall,
  KIT_FAULT_CALLS,
  type KitFaultCall,
} from '../../portal/faults';
import { type ParsedArgs, parseCount, parseLocalArgs } from '../cli';

/**
 * The arguments of `npm run portal` (scripts/portal.ts), the developer's window into the
 * embedded portal emulator's local D1. It runs in Node, so it lives with the other tools rather
 * than in portal/, which runs on the edge.
 */

export const PORTAL_CLI_USAGE = `Usage: npm run portal -- <command> [options]

Shows what the embedded portal emulator stored while you used the funnel (npm start).

Commands:
  users                 the accounts made by sign-up (email or Google)
  subscriptions         the charges, newest last, with the user's email
  lookups               the phone numbers located, and when the consent SMS would have gone out
  fail <call> [count]   make the next <count> calls of <call> answer 500 (default 1; 0 stops)
                        calls: ${FAULT_CALLS.join(', ')}
                        and the kit's geocoder (answers Google's failure): ${KIT_FAULT_CALLS.join(', ')}

Options:
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state)
  --help              show this text`;

export type PortalCommand =
  | { name: 'users' | 'subscriptions' | 'lookups' }
  | { name: 'fail'; call: FaultCall | KitFaultCall; count: number };

/** A switched-on failure is for a few retries, not a permanent outage. */
export const MAX_FAULT_COUNT = 1000;

const LISTINGS = new Set(['users', 'subscriptions', 'lookups']);

/** Only the local emulator has a database to read; `--remote` has no meaning here. */
export function parsePortalArgs(argv: readonly string[]): ParsedArgs<PortalCommand> {
  const args = parseLocalArgs(
    argv,
    'the emulator is local only; production uses the real product API',
  );
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (LISTINGS.has(name)) {
    if (rest.length > 0) return { kind: 'usage-error', error: `${name} takes no arguments` };
    return {
      kind: 'run',
      command: { name: name as 'users' | 'subscriptions' | 'lookups' },
      options,
    };
  }
  if (name !== 'fail') return { kind: 'usage-error', error: `unknown command "${name}"` };

  const [call, countText = '1', ...extra] = rest;
  if (call === undefined) return { kind: 'usage-error', error: 'fail needs a call name' };
  if (!isFaultCall(call) && !isKitFaultCall(call)) {
    return { kind: 'usage-error', error: `unknown call "${call}"` };
  }
  if (extra.length > 0) return { kind: 'usage-error', error: 'fail takes a call and a count' };
  const parsed = parseCount(countText, { min: 0, max: MAX_FAULT_COUNT });
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  return { kind: 'run', command: { name: 'fail', call, count: parsed.count }, options };
}
