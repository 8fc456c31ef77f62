import {
  DELAYED_FAULT_CALLS,
  FAULT_CALLS,
  type FaultCall,
  type FaultTiming,
  isDelayedFaultCall,
  isFaultCall,
  isKitFaultCall,
  type KitFaultCall,
  MAX_FAULT_DELAY_MS,
  SCRIPT_FAULT_CALLS,
} from '../../portal/faults';
import { parseCount } from '../cli';

/**
 * `npm run portal -- fail <call> [count] [--delay <ms>] [--after]`: the emulator's failure switch
 * (portal/faults.ts) as a developer sets it. A plain switch fails the next calls at once; the card
 * providers' fakes can also be slow (`--delay`): a charge that waits and then fails uncharged (a
 * timeout before the charge), one that charges and answers late (`--after`: a timeout after it),
 * a card script that arrives late. `--after` alone is "charged, and the answer lost".
 */

/** A switched-on failure is for a few retries, not a permanent outage. */
export const MAX_FAULT_COUNT = 1000;

export interface FailCommand {
  name: 'fail';
  call: FaultCall | KitFaultCall;
  count: number;
  timing: FaultTiming;
  delayMs: number;
}

type Parsed = { ok: true; command: FailCommand } | { ok: false; error: string };

const WHOLE_NUMBER = /^\d+$/;

/** `--delay`'s milliseconds, 1 to MAX_FAULT_DELAY_MS. */
function parseDelay(text: string): { ok: true; ms: number } | { ok: false; error: string } {
  const ms = Number(text);
  if (!WHOLE_NUMBER.test(text) || ms < 1 || ms > MAX_FAULT_DELAY_MS) {
    return {
      ok: false,
      error: `--delay must be whole milliseconds from 1 to ${MAX_FAULT_DELAY_MS}, not "${text}"`,
    };
  }
  return { ok: true, ms };
}

/** The call, the count and the options after `fail`, or the usage error that says what is wrong. */
export function parseFailCommand(
  rest: readonly string[],
  options: { delay?: string; after: boolean },
): Parsed {
  const [call, countText = '1', ...extra] = rest;
  if (call === undefined) return { ok: false, error: 'fail needs a call name' };
  if (!isFaultCall(call) && !isKitFaultCall(call)) {
    return { ok: false, error: `unknown call "${call}"` };
  }
  if (extra.length > 0) return { ok: false, error: 'fail takes a call and a count' };
  const parsed = parseCount(countText, { min: 0, max: MAX_FAULT_COUNT });
  if (!parsed.ok) return parsed;
  if (options.after && !isFaultCall(call)) {
    return {
      ok: false,
      error: `--after is for the portal's calls; ${call} has no work to do first`,
    };
  }
  let delayMs = 0;
  if (options.delay !== undefined) {
    if (!isDelayedFaultCall(call)) {
      return { ok: false, error: `--delay is for ${DELAYED_FAULT_CALLS.join(', ')}` };
    }
    const delay = parseDelay(options.delay);
    if (!delay.ok) return delay;
    delayMs = delay.ms;
  }
  const timing: FaultTiming = options.after ? 'after' : 'before';
  return { ok: true, command: { name: 'fail', call, count: parsed.count, timing, delayMs } };
}

/** What the switch now does, in the words the command prints. */
export function describeFault(command: FailCommand): string {
  const { call, count, timing, delayMs } = command;
  if (count === 0) return `${call}: failure switched off`;
  const next = `${call}: the next ${count}`;
  if ((SCRIPT_FAULT_CALLS as readonly string[]).includes(call)) {
    return delayMs > 0
      ? `${next} card form load(s) get their script ${delayMs} ms late`
      : `${next} card form load(s) never get their script`;
  }
  if (timing === 'after') {
    return delayMs > 0
      ? `${next} call(s) charge, then answer ${delayMs} ms late (a timeout after the charge)`
      : `${next} call(s) do their work, then answer 500 (the answer lost)`;
  }
  return delayMs > 0
    ? `${next} call(s) wait ${delayMs} ms, then answer 500 uncharged (a timeout before the charge)`
    : `${next} call(s) answer 500`;
}

/** The usage lines of `fail`, in the CLI's help. */
export const FAIL_USAGE = `  fail <call> [count]   make the next <count> calls of <call> answer 500 (default 1; 0 stops)
                        calls: ${FAULT_CALLS.join(', ')}
                        --after: do the call's work first (a charge is made), then answer 500
                        --delay <ms> (charge-stripe, charge-braintree):
                          wait, then answer 500 uncharged (a timeout before the charge); with
                          --after, charge and answer that late (a timeout after the charge)
                        the card providers' scripts as the checkout loads them (the test
                        gateway's card fields, as Stripe or as Braintree): ${SCRIPT_FAULT_CALLS.join(', ')}
                          never arrive; with --delay <ms>, arrive that late
                        and the kit's geocoder (answers Google's failure): geocode`;
