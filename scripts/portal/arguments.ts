import type { LifecycleEventType } from '../../shared/api/lifecycle';
import type { MinorUnits } from '../../shared/plans/money';
import { type ParsedArgs, parseLocalArgs } from '../cli';
import { FAIL_USAGE, type FailCommand, parseFailCommand } from './fail-arguments';
import {
  DEFAULT_WORKER_PORT,
  parseScheduledReminders,
  type ScheduledRemindersCommand,
} from './scheduled-arguments';

/**
 * The arguments of `npm run portal` (scripts/portal.ts), the developer's window into the
 * embedded portal emulator's local D1, and its voice as the product API after a first payment
 * (renewals, refunds, chargebacks, cancellations sent to the worker). It runs in Node, so it
 * lives with the other tools rather than in portal/, which runs on the edge.
 */

/** `npm start` serves the development worker here (`wrangler dev --port 8787`). */
export const DEFAULT_WORKER_URL = `http://localhost:${DEFAULT_WORKER_PORT}`;

export const PORTAL_CLI_USAGE = `Usage: npm run portal -- <command> [options]

Shows what the embedded portal emulator stored while you used the funnel (npm start), makes
its calls fail, and plays the product API's part after a first payment.

Commands:
  users                 the accounts made by sign-up (email or Google)
  subscriptions         the charges, newest last, with the user's email, each one's state now
                        (active, trialing, past_due, canceled, refunded, charged_back…) and
                        what its payments took and gave back
  payments              every payment, oldest first: first charges, renewals, recoveries,
                        refunds and chargebacks, one line each
  lookups               the phone numbers located, and when the consent SMS would have gone out
  reminders             the renewal reminders the worker asked for (the cron, every 15 minutes)
  reminders --scheduled the renewal reminders the worker will ask for, soonest first, with
                        how many of each kind and country: read from the running worker's
                        subscription ledger (npm start's, or --url / --port), not the portal
  declarations          the withdrawals and cancellations declared on /contract, matched or not,
                        and the manage links emailed on request (kind link)
  save-offers           the save offers subscribers took instead of cancelling: a discount, a
                        pause or a switch to a cheaper plan, and the test arm that offered it
${FAIL_USAGE}

  As the product API after a first payment, signed and sent to the worker's lifecycle endpoint:
  renew <subscription>       a renewal at the plan's recurring price (after a save offer: its
                             discount, its plan; refused while it is paused)
  renewal-failed <subscription>
                             a renewal declined (insufficient funds): the worker answers
                             with the recovery link the email would carry; a renew after
                             it counts as recovered revenue
  refund <subscription>      a refund of the first charge (once: the worker refuses 422
                             what would give back more than was paid)
  chargeback <subscription>  a chargeback of the first charge
  cancel <subscription>      a cancellation (no money moves)

Options:
  --delay <ms>        fail: the call is slow rather than failing at once (see fail above)
  --after             fail: the call does its work first, then fails or answers late
  --amount <39.99>    renew, renewal-failed, refund, chargeback: this amount, in the plan's currency
  --url <origin>      where the worker runs (default ${DEFAULT_WORKER_URL}, as npm start serves it)
  --port <n>          reminders --scheduled: npm start's port on this machine, if not ${DEFAULT_WORKER_PORT}
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state)
  --help              show this text`;

export type PortalCommand =
  | { name: ListingName }
  | FailCommand
  | ScheduledRemindersCommand
  | {
      name: 'lifecycle';
      type: LifecycleEventType;
      subscriptionId: string;
      /** `--amount` in cents; null: what the plan says (portal/lifecycle-event.ts). */
      amount: MinorUnits | null;
      /** The worker's origin. */
      url: string;
    };

/** The command words that send a lifecycle event, and the event each sends. */
const LIFECYCLE_COMMANDS: Readonly<Record<string, LifecycleEventType>> = {
  renew: 'renewal',
  'renewal-failed': 'renewal_failed',
  refund: 'refund',
  chargeback: 'chargeback',
  cancel: 'cancellation',
};

/** The options only the lifecycle commands take: node:util would refuse them as unknown. */
const LIFECYCLE_OPTIONS = ['amount', 'url'] as const;
type LifecycleOption = (typeof LIFECYCLE_OPTIONS)[number];

/**
 * The options only fail takes, with a value and without, and `reminders --scheduled`'s;
 * node:util would refuse them too.
 */
const VALUED_OPTIONS = [...LIFECYCLE_OPTIONS, 'delay', 'port'] as const;
type ValuedOption = (typeof VALUED_OPTIONS)[number];
const FLAGS = ['after', 'scheduled'] as const;
type Flag = (typeof FLAGS)[number];

/** A price as the plans write it: whole units and at most two decimals, more than zero. */
const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;

const LISTING_NAMES = [
  'users',
  'subscriptions',
  'payments',
  'lookups',
  'reminders',
  'declarations',
  'save-offers',
] as const;
type ListingName = (typeof LISTING_NAMES)[number];

const LISTINGS: ReadonlySet<string> = new Set(LISTING_NAMES);

type Extracted =
  | ({ ok: true; values: Partial<Record<ValuedOption, string>>; rest: string[] } & Record<
      Flag,
      boolean
    >)
  | { ok: false; error: string };

/**
 * `--amount`, `--url`, `--delay`, `--port` (`--name value` or `--name=value`), `--after` and
 * `--scheduled` out of `argv`, the rest as it was.
 */
function extractCommandOptions(argv: readonly string[]): Extracted {
  const values: Partial<Record<ValuedOption, string>> = {};
  const rest: string[] = [];
  const flags: Record<Flag, boolean> = { after: false, scheduled: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const flag = FLAGS.find((name) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (flag !== undefined) {
      if (arg !== `--${flag}`) return { ok: false, error: `--${flag} takes no value` };
      flags[flag] = true;
      continue;
    }
    const option = VALUED_OPTIONS.find(
      (name) => arg === `--${name}` || arg.startsWith(`--${name}=`),
    );
    if (option === undefined) {
      rest.push(arg);
      continue;
    }
    const inline = arg.startsWith(`--${option}=`) ? arg.slice(option.length + 3) : undefined;
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') {
      return { ok: false, error: `--${option} needs a value` };
    }
    if (values[option] !== undefined) return { ok: false, error: `--${option} given twice` };
    values[option] = value;
  }
  return { ok: true, values, rest, ...flags };
}

/** `39.99` in cents, or the usage error that shows the form. */
function parseAmount(text: string): { ok: true; cents: MinorUnits } | { ok: false; error: string } {
  const cents = AMOUNT.test(text) ? Math.round(Number(text) * 100) : 0;
  if (cents <= 0) {
    return { ok: false, error: `--amount must be a price such as 39.99, not "${text}"` };
  }
  return { ok: true, cents };
}

/** An http(s) origin, without the trailing slash. */
function parseWorkerUrl(text: string): { ok: true; url: string } | { ok: false; error: string } {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return { ok: false, error: `--url must be an http(s) address such as ${DEFAULT_WORKER_URL}` };
  }
  return { ok: true, url: url.origin };
}

function parseLifecycleCommand(
  type: LifecycleEventType,
  name: string,
  rest: readonly string[],
  values: Partial<Record<LifecycleOption, string>>,
): { ok: true; command: PortalCommand } | { ok: false; error: string } {
  const [subscriptionId, ...extra] = rest;
  if (subscriptionId === undefined) return { ok: false, error: `${name} needs a subscription id` };
  if (extra.length > 0) return { ok: false, error: `${name} takes one subscription id` };
  let amount: MinorUnits | null = null;
  if (values.amount !== undefined) {
    if (type === 'cancellation') return { ok: false, error: 'cancel takes no --amount' };
    const parsed = parseAmount(values.amount);
    if (!parsed.ok) return parsed;
    amount = parsed.cents;
  }
  const url = parseWorkerUrl(values.url ?? DEFAULT_WORKER_URL);
  if (!url.ok) return url;
  return { ok: true, command: { name: 'lifecycle', type, subscriptionId, amount, url: url.url } };
}

/** The fail options given to a command other than fail, if any. */
function misplacedFailOption(extracted: { values: { delay?: string }; after: boolean }) {
  if (extracted.values.delay !== undefined) return '--delay';
  return extracted.after ? '--after' : undefined;
}

/** Why `--scheduled` or `--port` is out of place on command `name`, if it is. */
function misplacedScheduledOption(
  name: string,
  extracted: { values: { port?: string; url?: string }; scheduled: boolean },
): string | undefined {
  if (extracted.scheduled) return name === 'reminders' ? undefined : '--scheduled is for reminders';
  if (extracted.values.port !== undefined) return '--port is for reminders --scheduled';
  // The listing reads the portal's database: only the ledger's is read through a worker.
  if (name === 'reminders' && extracted.values.url !== undefined) {
    return '--url is for reminders --scheduled';
  }
  return undefined;
}

/** Only the local emulator has a database to read; `--remote` has no meaning here. */
export function parsePortalArgs(argv: readonly string[]): ParsedArgs<PortalCommand> {
  const extracted = extractCommandOptions(argv);
  if (!extracted.ok) return { kind: 'usage-error', error: extracted.error };
  const args = parseLocalArgs(
    extracted.rest,
    'the emulator is local only; production uses the real product API',
  );
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  const failOption = name === 'fail' ? undefined : misplacedFailOption(extracted);
  if (failOption !== undefined) {
    return { kind: 'usage-error', error: `${failOption} is for fail` };
  }
  const scheduledError = misplacedScheduledOption(name, extracted);
  if (scheduledError !== undefined) return { kind: 'usage-error', error: scheduledError };
  if (extracted.scheduled) {
    const parsed = parseScheduledReminders(rest, extracted.values, options.persistTo);
    return parsed.ok
      ? { kind: 'run', command: parsed.command, options }
      : { kind: 'usage-error', error: parsed.error };
  }
  const lifecycleType = Object.hasOwn(LIFECYCLE_COMMANDS, name)
    ? LIFECYCLE_COMMANDS[name]
    : undefined;
  if (lifecycleType !== undefined) {
    const parsed = parseLifecycleCommand(lifecycleType, name, rest, extracted.values);
    return parsed.ok
      ? { kind: 'run', command: parsed.command, options }
      : { kind: 'usage-error', error: parsed.error };
  }
  const given = LIFECYCLE_OPTIONS.find((option) => extracted.values[option] !== undefined);
  if (given !== undefined) {
    return {
      kind: 'usage-error',
      error: `--${given} is for renew, renewal-failed, refund, chargeback and cancel`,
    };
  }
  if (LISTINGS.has(name)) {
    if (rest.length > 0) return { kind: 'usage-error', error: `${name} takes no arguments` };
    return {
      kind: 'run',
      command: { name: name as ListingName },
      options,
    };
  }
  if (name !== 'fail') return { kind: 'usage-error', error: `unknown command "${name}"` };
  const parsed = parseFailCommand(rest, { delay: extracted.values.delay, after: extracted.after });
  return parsed.ok
    ? { kind: 'run', command: parsed.command, options }
    : { kind: 'usage-error', error: parsed.error };
}
