import { DurableObject } from 'cloudflare:workers';

export interface RateRule {
  /** How many hits the window allows. */
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the oldest counted hit leaves the window; 0 when allowed. */
  retryAfterSeconds: number;
}

interface Hit {
  at: number;
  /** Hits with the same member count once (e.g. the same number looked up again). */
  member: string;
}

const HITS_KEY = 'hits';
const FACT_KEY = 'fact';

/** A batch's hit, and which of its insert ids nobody had sent through this key before. */
export interface Admission {
  decision: RateDecision;
  /** The ids claimed by this call, each once; none when the hit was refused. */
  fresh: string[];
  /** When these claims lapse (epoch ms): names them for `release`. */
  expiresAt: number;
}

/**
 * Pure sliding-window decision over the hits still inside the window. A hit whose member is
 * already counted is allowed without counting again; a refused hit is not counted, so a client
 * that keeps trying is let in again once its window has passed.
 */
export function decide(
  hits: readonly Hit[],
  rule: RateRule,
  now: number,
  member: string,
): { decision: RateDecision; hits: Hit[] } {
  const live = hits.filter((hit) => now - hit.at < rule.windowMs);
  const known = live.find((hit) => hit.member === member);
  if (known) {
    known.at = now;
    return { decision: { allowed: true, retryAfterSeconds: 0 }, hits: live };
  }
  const decision = peek(live, rule, now);
  if (decision.allowed) live.push({ at: now, member });
  return { decision, hits: live };
}

/** Whether one more hit would be allowed, without counting it (hits counted elsewhere). */
function peek(hits: readonly Hit[], rule: RateRule, now: number): RateDecision {
  const live = hits.filter((hit) => now - hit.at < rule.windowMs);
  if (live.length < rule.limit) return { allowed: true, retryAfterSeconds: 0 };
  const oldest = Math.min(...live.map((hit) => hit.at));
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000)),
  };
}

/**
 * One counter per key (a visitor, an IP, a number prefix), named by `idFromName(key)`. Kept in a
 * Durable Object rather than isolate memory so every isolate and location sees the same count.
 */
export class RateLimiter extends DurableObject {
  private seenTableReady = false;

  async hit(rule: RateRule, member: string = crypto.randomUUID()): Promise<RateDecision> {
    const now = Date.now();
    const stored = (await this.ctx.storage.get<Hit[]>(HITS_KEY)) ?? [];
    const { decision, hits } = decide(stored, rule, now, member);
    await this.ctx.storage.put(HITS_KEY, hits);
    // Forget the key once its window has passed, so idle counters do not pile up.
    await this.ctx.storage.setAlarm(now + rule.windowMs);
    return decision;
  }

  /**
   * The decision a hit would get, counting nothing: for limits on what happened after a request
   * (a charge's decline, recorded with `hit` when the answer says so), checked before the next.
   */
  async check(rule: RateRule): Promise<RateDecision> {
    const stored = (await this.ctx.storage.get<Hit[]>(HITS_KEY)) ?? [];
    return peek(stored, rule, Date.now());
  }

  /**
   * Keeps one fact under this key until it is forgotten (`forMs`): what a later request needs to
   * count against the right counter, e.g. the card a polling id charged, read back when its
   * result turns out declined.
   */
  async remember(fact: string, forMs: number): Promise<void> {
    await this.ctx.storage.put(FACT_KEY, fact);
    const alarm = await this.ctx.storage.getAlarm();
    const until = Date.now() + forMs;
    if (alarm === null || alarm < until) await this.ctx.storage.setAlarm(until);
  }

  async recall(): Promise<string | null> {
    return (await this.ctx.storage.get<string>(FACT_KEY)) ?? null;
  }

  /**
   * One `POST /e` batch in one call (worker/collector/intake-limits.ts): counts its hit and,
   * when the hit is allowed, claims its insert ids for `keepMs`, answering the ones no batch
   * through this key had claimed. The per-visitor object the limit already calls remembers what
   * its visitor sent, so de-duplication costs no database statement and no extra round trip, and
   * every visitor's ids live in their own small store (docs/analytics.md).
   */
  async admit(rule: RateRule, insertIds: readonly string[], keepMs: number): Promise<Admission> {
    const decision = await this.hit(rule);
    const expiresAt = Date.now() + keepMs;
    if (!decision.allowed || insertIds.length === 0) return { decision, fresh: [], expiresAt };
    const sql = this.ctx.storage.sql;
    // Once per instance, not per batch: the table outlives the instance until the alarm empties
    // the object, and a fresh instance creates it again.
    if (!this.seenTableReady) {
      sql.exec(
        'CREATE TABLE IF NOT EXISTS seen_ids (insert_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID',
      );
      this.seenTableReady = true;
    }
    // INSERT OR IGNORE returns only the rows it inserted: an id seen before, or twice in this
    // batch, comes back at most once.
    const fresh = sql
      .exec<{ insert_id: string }>(
        'INSERT OR IGNORE INTO seen_ids (insert_id, expires_at) SELECT value, ? FROM json_each(?) RETURNING insert_id',
        expiresAt,
        JSON.stringify(insertIds),
      )
      .toArray()
      .map((row) => row.insert_id);
    return { decision, fresh, expiresAt };
  }

  /** Forgets claims `admit` made whose events never reached the queue, so a resend counts. */
  async release(insertIds: readonly string[], expiresAt: number): Promise<void> {
    if (!this.hasSeenIds()) return;
    this.ctx.storage.sql.exec(
      'DELETE FROM seen_ids WHERE expires_at = ? AND insert_id IN (SELECT value FROM json_each(?))',
      expiresAt,
      JSON.stringify(insertIds),
    );
  }

  private hasSeenIds(): boolean {
    return (
      this.ctx.storage.sql
        .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seen_ids'")
        .toArray().length > 0
    );
  }

  /**
   * Runs when the last hit's window or the last fact's time has passed: forgets them, and the
   * claimed ids that lapsed. Ids still claimed keep the object until the first of them lapses;
   * with none left the object is emptied, so idle counters do not pile up.
   */
  override async alarm(): Promise<void> {
    const next = this.hasSeenIds() ? this.forgetLapsedIds(Date.now()) : null;
    if (next === null) {
      await this.ctx.storage.deleteAll();
      this.seenTableReady = false;
      return;
    }
    await this.ctx.storage.delete([HITS_KEY, FACT_KEY]);
    await this.ctx.storage.setAlarm(next);
  }

  /** Deletes lapsed claims; the time the next one lapses, or null when none is left. */
  private forgetLapsedIds(now: number): number | null {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM seen_ids WHERE expires_at <= ?', now);
    const [row] = sql
      .exec<{ next: number | null }>('SELECT min(expires_at) AS next FROM seen_ids')
      .toArray();
    return row?.next ?? null;
  }
}
