import { DurableObject } from 'cloudflare:workers';
import {
  type AttemptNews,
  admitToLedger,
  type LedgerAdmission,
  type ProposedCharge,
  type PurchaseLedger,
  settleInLedger,
  withdrawFromLedger,
} from './ledger';

/**
 * Where each purchase's attempt ledger is kept (docs/payments.md "One charge per purchase"): one
 * Durable Object per buyer and plan (./charge-guard.ts), so every isolate and location sees the
 * same attempts and one object answers one call at a time (two presses of Pay at once cannot
 * both pass). No key is hot (a buyer buys a plan once), none grows: at most
 * MAX_ATTEMPTS_PER_PURCHASE attempts, and the object forgets the purchase a day after its last
 * attempt, the longest the checkout keeps an unfinished attempt (islands/payments/attempt.ts).
 */

const LEDGER_KEY = 'ledger';

/** How long a purchase's ledger is kept after its last write. */
const LEDGER_KEPT_MS = 24 * 60 * 60_000;

/** The Durable Object of one purchase (`idFromName('purchase:' + key)`, ./charge-guard.ts). */
export class PurchaseAttempts extends DurableObject {
  private async stored(): Promise<PurchaseLedger | null> {
    return (await this.ctx.storage.get<PurchaseLedger>(LEDGER_KEY)) ?? null;
  }

  private async keep(ledger: PurchaseLedger): Promise<void> {
    await this.ctx.storage.put(LEDGER_KEY, ledger);
    await this.ctx.storage.setAlarm(Date.now() + LEDGER_KEPT_MS);
  }

  /**
   * The ledger's word on `proposed` (./ledger.ts admitToLedger), with the purchase's id; an
   * allowed attempt is kept at once as pending. The first attempt names the purchase: a new id
   * the product API de-duplicates on, kept as long as the ledger.
   */
  async admit(proposed: ProposedCharge): Promise<LedgerAdmission & { purchaseId: string }> {
    const ledger = (await this.stored()) ?? {
      purchaseId: `pur_${crypto.randomUUID().replaceAll('-', '')}`,
      attempts: [],
    };
    const admitted = admitToLedger(ledger, proposed);
    if (admitted.allowed && admitted.ledger !== ledger) await this.keep(admitted.ledger);
    return { ...admitted, purchaseId: ledger.purchaseId };
  }

  /** Records what an answer said of the attempt `id` (./ledger.ts settleInLedger). */
  async settle(id: string, news: AttemptNews): Promise<void> {
    const ledger = await this.stored();
    if (ledger) await this.keep(settleInLedger(ledger, id, news));
  }

  /** Takes back a pending attempt that was never sent (the retry governor refused it). */
  async withdraw(id: string): Promise<void> {
    const ledger = await this.stored();
    if (ledger) await this.keep(withdrawFromLedger(ledger, id));
  }

  /** The purchase's ledger, or null when none is kept (for the log and the tests). */
  async ledger(): Promise<PurchaseLedger | null> {
    return this.stored();
  }

  /** A day without an attempt: the purchase is forgotten. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
