import { describeError } from '../../../shared/log';
import { isTheme } from '../../../shared/theme';
import type { Bindings } from '../../env';
import { experimentPurchaseOf } from '../../experiments/store/experiment-purchase';
import { SUPPORTED_LANGUAGES } from '../../i18n';
import { type ApplyRevenueEvents, applyToExperiments } from '../../lifecycle/apply';
import type { Buyer } from '../../lifecycle/ledger';
import { groupByLedgerShard, ledgerShardStub } from '../../lifecycle/ledger-shard';
import { type RecordMoneyEvents, recordMoneyEvents } from '../../lifecycle/money-event';
import type { ReminderFacts } from '../../lifecycle/reminder-rows';
import { isVerifiedPurchase, type QueuedEvent } from '../queued-event';
import type { Destination } from './destination';
import { failedForNow } from './outcome';

export interface LedgerDestinationOptions {
  /** Where held events go once their buyer is known; the experiments unless a test records them. */
  apply?: ApplyRevenueEvents;
  /** Epoch ms; Date.now unless a test fixes it. */
  now?: () => number;
  /** How held events reach the event archive once passed on: the events queue unless a test records them. */
  record?: RecordMoneyEvents;
}

/**
 * Remembers the buyers in their subscriptions' ledger shards, one call per shard touched, and
 * passes on the lifecycle events held for those subscriptions (ledger.ts PARKED_MS): the ones that
 * arrived before their purchase came through the queue. Each held event is marked passed only
 * once the experiments took it and it was queued for the archive (money-event.ts, the same insert
 * id on every try); a failure throws, and the purchase's message is retried.
 */
export async function rememberBuyers(
  env: Bindings,
  buyers: readonly Buyer[],
  options: LedgerDestinationOptions = {},
): Promise<void> {
  const apply = options.apply ?? applyToExperiments;
  const record = options.record ?? recordMoneyEvents;
  const now = (options.now ?? Date.now)();
  await Promise.all(
    [...groupByLedgerShard(buyers, (buyer) => buyer.subscriptionId)].map(async ([index, group]) => {
      const ledger = ledgerShardStub(env.SUBSCRIPTION_LEDGER, index);
      const held = await ledger.remember(group, now);
      if (held.length === 0) return;
      await apply(env, held);
      await record(env, held, now);
      await ledger.settleParked(held.map((event) => event.eventId));
    }),
  );
}

/**
 * What the purchase's renewal reminders are scheduled from (worker/lifecycle/reminder-rows.ts):
 * its plan and time, the buyer's country, the language the pages spoke and the brand they wore
 * (the purchase event's `language` and `theme`), and the funnel's origin the page was on (for the manage link). None without a
 * plan.
 */
function remindersOf(message: QueuedEvent): { reminders?: ReminderFacts } {
  const properties = message.event.event_properties;
  if (typeof properties.plan !== 'string') return {};
  const language =
    typeof properties.language === 'string' && SUPPORTED_LANGUAGES.includes(properties.language)
      ? properties.language
      : null;
  const theme =
    typeof properties.theme === 'string' && isTheme(properties.theme) ? properties.theme : null;
  const page = message.context.page_url;
  const origin = page !== null && URL.canParse(page) ? new URL(page).origin : null;
  return {
    reminders: {
      planId: properties.plan,
      chargedAt: message.event.time,
      country: message.context.country,
      language,
      theme,
      origin: origin?.startsWith('https://') || origin?.startsWith('http://') ? origin : null,
    },
  };
}

/**
 * The queue consumer's destination that tells the ledger who bought each subscription: the
 * server-verified purchases only (worker/purchases/record-purchase.ts queues them with `source:
 * 'server'`), never what a browser posts to `/e`, so nobody can claim a subscription's later
 * revenue for a visitor of their choosing. Its buyer is the purchase's visitor as the experiments
 * read it (experimentPurchaseOf), so revenue events land on the row the first payment did; its
 * amount and currency are what the subscription's later events are checked against
 * (subscription-fit.ts).
 * A purchase without a subscription id has nothing to remember. Writing a buyer twice changes
 * nothing, so a message delivered again is harmless.
 */
export function subscriptionLedgerDestination(
  env: Bindings,
  options: LedgerDestinationOptions = {},
): Destination {
  return {
    name: 'ledger',
    takes: isVerifiedPurchase,
    async deliver(messages, noted) {
      const buyers = messages.flatMap((message): Buyer[] => {
        const purchase = experimentPurchaseOf(message);
        return purchase
          ? [
              {
                subscriptionId: purchase.subscriptionId,
                visitorId: purchase.visitorId,
                paidMinor: purchase.amountMinor,
                currency: purchase.currency,
                ...remindersOf(message),
              },
            ]
          : [];
      });
      try {
        await rememberBuyers(env, buyers, options);
        return messages.map(() => 'delivered');
      } catch (error) {
        const retry = failedForNow(
          'subscription_ledger_failed',
          { purchases: buyers.length, detail: describeError(error) },
          noted,
        );
        return messages.map(() => retry);
      }
    },
  };
}
