import { DurableObject } from 'cloudflare:workers';
import {
  type AttemptOutcome,
  type CardAttempt,
  type GovernorDecision,
  governAttempt,
  keptAttempts,
  type ProposedAttempt,
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
   * pending, so two attempts asked at the same time cannot both pass the last free place. The
   * same id asked again is the same attempt (a resend after a timeout): allowed, counted once.
   */
  async admit(id: string, proposed: ProposedAttempt): Promise<GovernorDecision> {
    const attempts = await this.stored();
    if (attempts.some((attempt) => attempt.id === id)) return { allowed: true };
    const decision = governAttempt(attempts, proposed);
    if (decision.allowed) {
      await this.keep(
        [...attempts, { ...proposed, id, outcome: { result: 'pending' } }],
        proposed.at,
      );
    }
    return decision;
  }

  /**
   * Records how the attempt `id` ended. False when this card has no such attempt (never admitted,
   * or older than 30 days): the caller logs it.
   */
  async settle(id: string, outcome: SettledOutcome): Promise<boolean> {
    const attempts = await this.stored();
    const attempt = attempts.find((each) => each.id === id);
    if (!attempt) return false;
    const settled = attempts.map((each) => (each === attempt ? { ...each, outcome } : each));
    await this.keep(settled, Math.max(...attempts.map((each) => each.at)));
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
