import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import {
  type AttemptOutcome,
  admitCardAttempt,
  type CardAttempt,
  type GovernorDecision,
  keptAttempts,
  type ProposedAttempt,
  recordEndedAttempt,
  settleCardAttempt,
} from './governor';
import { WINDOW_30_DAYS_MS } from './network-rules';

/**
 * Where the retry governor keeps each card's recent attempts, on both providers: one Durable
 * Object per card key (docs/payments.md "The retry governor"), so every isolate and location
 * counts the same attempts, no key is hot (a card is charged a few times a month) and none grows:
 * each write drops what no rule can count again.
 */

const ATTEMPTS_KEY = 'attempts';

/** How an attempt ended, once its answer is known. */
export type SettledOutcome = Exclude<AttemptOutcome, { result: 'pending' }>;

/** An attempt sent elsewhere (a renewal the product API charged), with how it ended. */
export type EndedAttempt = ProposedAttempt & { outcome: SettledOutcome };

/** The Durable Object of one card key (`idFromName('card:' + key)`, durableCardAttempts below). */
export class CardAttempts extends DurableObject {
  private async stored(): Promise<CardAttempt[]> {
    return (await this.ctx.storage.get<CardAttempt[]>(ATTEMPTS_KEY)) ?? [];
  }

  private async keep(attempts: readonly CardAttempt[], now: number): Promise<void> {
    const kept = keptAttempts(attempts, now);
    await this.ctx.storage.put(ATTEMPTS_KEY, kept);
    // Forget the card once its newest attempt has left every window.
    const newest = Math.max(now, ...kept.map((attempt) => attempt.at));
    await this.ctx.storage.setAlarm(newest + WINDOW_30_DAYS_MS);
  }

  /**
   * Asks the governor about the attempt `id` and, when it is allowed, counts it at once as
   * pending (governor.ts admitCardAttempt): one object answers one call at a time, so two
   * attempts asked at once cannot both take the last free place.
   */
  async admit(id: string, proposed: ProposedAttempt): Promise<GovernorDecision> {
    const attempts = await this.stored();
    const admitted = admitCardAttempt(attempts, id, proposed);
    if (admitted.counted) await this.keep(admitted.attempts, proposed.at);
    return admitted.decision;
  }

  /**
   * Records how the attempt `id` ended. False when this card has no such attempt (never admitted,
   * or older than 30 days): the caller logs it.
   */
  async settle(id: string, outcome: SettledOutcome): Promise<boolean> {
    const attempts = await this.stored();
    const settled = settleCardAttempt(attempts, id, outcome);
    if (settled === null) return false;
    await this.keep(settled, Math.max(...attempts.map((each) => each.at)));
    return true;
  }

  /**
   * Keeps an attempt sent elsewhere that has ended (governor.ts recordEndedAttempt); false when
   * the same id was kept before.
   */
  async record(id: string, ended: EndedAttempt): Promise<boolean> {
    const attempts = await this.stored();
    const recorded = recordEndedAttempt(attempts, id, ended);
    if (recorded === null) return false;
    await this.keep(recorded, ended.at);
    return true;
  }

  /** The card's kept attempts, oldest first (for the log and the tests). */
  async recent(): Promise<CardAttempt[]> {
    return [...(await this.stored())].sort((a, b) => a.at - b.at);
  }

  /** No attempt has been written for 30 days: none can count again. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

/**
 * The durable record of each card's recent attempts that the retry governor counts, before any
 * charge on either provider (docs/payments.md "The retry governor").
 *
 * The card key is a string the caller makes: the charge path's is a digest of the buyer and the
 * card's fingerprint (worker/purchase-ledger/ledger.ts governorCardKey, which says what it can
 * and cannot match across providers).
 */
export interface CardAttemptStore {
  /**
   * The governor's decision on one more attempt of the card; an allowed attempt is counted at
   * once, as pending, until `settle`. The same `attemptId` (the attempt's idempotency key) asked
   * again is the same attempt: allowed, counted once.
   */
  admit(cardKey: string, attemptId: string, proposed: ProposedAttempt): Promise<GovernorDecision>;
  /** Records how an admitted attempt ended; false when the card has no such attempt. */
  settle(cardKey: string, attemptId: string, outcome: SettledOutcome): Promise<boolean>;
  /**
   * Keeps an attempt sent elsewhere that has ended (a renewal the product API charged), whatever
   * the governor would have said; false when the same id was kept before.
   */
  record(cardKey: string, attemptId: string, ended: EndedAttempt): Promise<boolean>;
  /** The card's attempts still kept (the last 30 days, after its latest approval). */
  recent(cardKey: string): Promise<CardAttempt[]>;
}

function checked(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The object that holds one card key's attempts. */
function cardObject(namespace: Bindings['CARD_ATTEMPTS'], cardKey: string) {
  return namespace.get(namespace.idFromName(`card:${checked('card key', cardKey)}`));
}

/** The store the worker uses: one CardAttempts Durable Object per card key (./card-attempts.ts). */
export function durableCardAttempts(namespace: Bindings['CARD_ATTEMPTS']): CardAttemptStore {
  return {
    admit: (cardKey, attemptId, proposed) => {
      if (!Number.isFinite(proposed.at)) throw new Error(`attempt time ${proposed.at} is no time`);
      return cardObject(namespace, cardKey).admit(checked('attempt id', attemptId), proposed);
    },
    settle: (cardKey, attemptId, outcome) =>
      cardObject(namespace, cardKey).settle(checked('attempt id', attemptId), outcome),
    record: (cardKey, attemptId, ended) =>
      cardObject(namespace, cardKey).record(checked('attempt id', attemptId), ended),
    recent: (cardKey) => cardObject(namespace, cardKey).recent(),
  };
}
