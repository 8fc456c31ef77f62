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

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
