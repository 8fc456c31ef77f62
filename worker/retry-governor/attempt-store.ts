import type { Bindings } from '../env';
import type { EndedAttempt, SettledOutcome } from './card-attempts';
import type { CardAttempt, GovernorDecision, ProposedAttempt } from './governor';

/**
 * The durable record of each card's recent attempts that the retry governor counts, before any
 * charge on either provider (docs/payments.md "The retry governor").
 *
 * The card key is a string the caller makes: the charge path's is a digest of the buyer and the
 * card's fingerprint (worker/purchase-ledger/card-key.ts governorCardKey, which says what it can
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
