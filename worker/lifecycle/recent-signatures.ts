/**
 * The signatures this isolate has already passed to the ledger, until they stop being fresh: a
 * replayed request is refused here, without a call to the ledger, from the second time an isolate
 * sees it. The ledger stays the judge (another isolate has not seen it); this only keeps a burst
 * of one captured request from becoming a burst of ledger calls.
 */
export class RecentSignatures {
  /** Signature → fresh until (epoch ms), oldest first. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly capacity = 10_000) {}

  has(signature: string, now: number): boolean {
    const until = this.seen.get(signature);
    return until !== undefined && until >= now;
  }

  add(signature: string, freshUntil: number, now: number): void {
    if (this.seen.size >= this.capacity) this.forget(now);
    this.seen.set(signature, freshUntil);
  }

  /** Drops the stale ones, then, if still full, the oldest: memory stays bounded. */
  private forget(now: number): void {
    for (const [signature, until] of this.seen) {
      if (until < now) this.seen.delete(signature);
    }
    for (const signature of this.seen.keys()) {
      if (this.seen.size < this.capacity) break;
      this.seen.delete(signature);
    }
  }
}
