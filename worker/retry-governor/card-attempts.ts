import { DurableObject } from 'cloudflare:workers';
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

/** The Durable Object of one card key (`idFromName('card:' + key)`, ./attempt-store.ts). */
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
