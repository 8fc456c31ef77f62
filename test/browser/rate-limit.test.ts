import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive, searchNotice } from './visitor-steps';

/**
 * Each lookup texts a real person, so a burst of lookups of neighbouring numbers (SMS
 * pumping walks a number range from fresh cookies) is cut off with the limit text, while a
 * visitor locating their one number never notices a limit. This file's worker starts with empty
 * counters.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const LIMIT_TEXT = 'Too many attempts. Please wait a few minutes and try again.';

/** A fresh visitor (no cookies) whose landing stored `phone`, on the searching screen. */
async function searchAsNewVisitor(phone: string) {
  const visitor = await session.newVisitor({ reducedMotion: 'reduce' });
  await visitor.page.addInitScript(
    (value) => localStorage.setItem('gf:map:phone', JSON.stringify(value)),
    phone,
  );
  await visitor.page.goto('/searching?skip_split=true');
  await interactive(visitor.page);
  return visitor;
}

/** Waits for the search to finish: 'located' when it did, else the notice it stopped with. */
async function outcome(page: Awaited<ReturnType<typeof searchAsNewVisitor>>['page']) {
  const located = page.locator('.search__row').first();
  const stopped = page.locator('.search__notice-title');
  await located.or(stopped).waitFor({ timeout: 20_000 });
  return (await stopped.count()) > 0 ? searchNotice(page) : 'located';
}

describe('lookup rate limits', () => {
  it('a burst of sequential numbers in one prefix ends with the limit text', async () => {
    // +1 202 555 0101 … 0107: valid numbers of one 1000-number block, each from a new visitor.
    const outcomes: string[] = [];
    const lastProblems: string[][] = [];
    for (let n = 1; n <= 7; n += 1) {
      const { context, page, problems } = await searchAsNewVisitor(`+1202555010${n}`);
      outcomes.push(await outcome(page));
      lastProblems.push(problems);
      await context.close();
    }
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill('located'));
    expect(outcomes.slice(5)).toEqual([LIMIT_TEXT, LIMIT_TEXT]);
    expect(lastProblems.at(-1)).toEqual([
      `429 ${new URL('/api/phone-number-info/%2B12025550107', session.worker.url).href}`,
    ]);
  });

  it('meanwhile a visitor locating one number elsewhere is not limited', async () => {
    const { context, page, problems } = await searchAsNewVisitor('+447400123456');
    expect(await outcome(page)).toBe('located');
    expect(problems).toEqual([]);
    await context.close();
  });
});
