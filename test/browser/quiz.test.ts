import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { runAxe, seriousViolations } from './a11y-checks';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { continueAfterReceipt, payButton, portalSubscriptions, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, signupField, uniqueEmail } from './visitor-steps';

/**
 * A quiz funnel in Chromium (docs/marketers.md, "A quiz funnel, step by step"), as published to
 * the default route: a visitor without script answers every question by plain forms, branches
 * by their first answer and meets their answer in the checkout's headline; a visitor with the
 * keyboard alone does the same with script, pays with the test card, and the product API's
 * account holds their answers.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
  const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  const document = structuredClone(state.live) as unknown as Record<string, unknown>;
  document.content = QUIZ_CONTENT;
  document.flows = QUIZ_FLOWS;
  const published = await consoleFetch<{ ok: boolean }>(session, CONSOLE_API.publish, {
    base: state.head?.seq ?? null,
    document,
    note: 'quiz test',
  });
  expect(published.ok).toBe(true);
});
afterAll(() => session?.stop());

const en = (text: string) => ({ en: text });

const QUIZ_CONTENT = {
  screens: {
    checkout_v3_tr: {
      copy: { en: { 'screens.checkout_v3_tr.title': 'A plan for {{answer.who|your family}}' } },
    },
  },
  questions: {
    q_who: {
      kind: 'single',
      key: 'who',
      title: en('Who do you want to keep safe?'),
      choices: [
        { value: 'child', label: en('your child') },
        { value: 'partner', label: en('your partner') },
      ],
    },
    q_age: { kind: 'number', key: 'age', title: en('How old is your child?'), min: 1, max: 18 },
    q_worry: {
      kind: 'multiple',
      key: 'worry',
      title: en('What worries you most?'),
      choices: [
        { value: 'roads', label: en('Busy roads') },
        { value: 'strangers', label: en('Strangers') },
        { value: 'night', label: en('Late nights') },
      ],
    },
    q_note: {
      kind: 'info',
      title: en('Families like yours check in twice a day'),
      subtitle: en('Your plan is almost ready.'),
    },
    q_build: { kind: 'building', title: en('Building your plan'), seconds: 1 },
  },
};

const QUIZ_FLOWS = {
  version: 'quiz',
  flows: {
    default: [
      'q_who',
      'q_age',
      'q_worry',
      'q_note',
      'q_build',
      'signup',
      'checkout_v3_tr',
      'success',
    ],
  },
  branches: {
    default: {
      q_who: {
        branches: [{ when: { test: 'equals', key: 'who', value: 'child' }, next: 'q_age' }],
        otherwise: 'q_worry',
      },
    },
  },
};

const path = (page: Page) => new URL(page.url()).pathname;

/** Presses Tab until the focused control's name is `name` (at most 30 presses). */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      return active?.closest('label')?.textContent ?? active?.textContent ?? '';
    });
    if (name.test(focused.trim())) return;
  }
  throw new Error(`no control named ${name} took the focus`);
}

describe('a quiz funnel in Chromium', () => {
  it('is answered without script, by plain forms, up to the checkout that says the answer', async () => {
    const { context, page } = await session.newVisitor({ javaScriptEnabled: false });
    await page.goto('/');
    const question = page.getByRole('group', { name: 'Who do you want to keep safe?' });
    await question.getByRole('button', { name: 'your child' }).click();
    await page.waitForURL((url) => url.pathname === '/q_age');
    // A number out of range is said on the question; nothing moves on.
    await page.getByLabel('How old is your child?').fill('30');
    await page.getByRole('button', { name: 'Continue' }).click();
    const field = page.getByLabel('How old is your child?');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    // The field names the problem, which a screen reader says with it.
    const problem = await field.getAttribute('aria-describedby');
    expect(await page.locator(`#${problem}`).textContent()).toBe('Enter a number from 1 to 18.');
    expect(path(page)).toBe('/q_age');
    await page.getByLabel('How old is your child?').fill('9');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/q_worry');
    await page.getByLabel('Busy roads').check();
    await page.getByLabel('Late nights').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/q_note');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Families like yours check in twice a day',
    );
    // Back shows the answers kept.
    await page.goBack();
    expect(await page.getByLabel('Late nights').isChecked()).toBe(true);
    await page.goForward();
    await page.getByRole('button', { name: 'Continue' }).click();
    // Without script the plan being built waits for Skip.
    await page.waitForURL((url) => url.pathname === '/q_build');
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.waitForURL((url) => url.pathname === '/signup');
    await page.locator('input[type="email"]').fill(uniqueEmail('quiz-no-script'));
    await page.locator('#continue-button').click();
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'A plan for your child',
    );
    await context.close();
  });

  it('is answered by keyboard alone, paid with 4242, its answers in the product API', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 390, height: 844 },
    });
    await page.goto('/');
    await interactive(page);
    expect(seriousViolations(await runAxe(page))).toEqual([]);
    // Moving the focus over the choices chooses nothing; Space on one goes on.
    await tabTo(page, /^your child$/);
    await tabTo(page, /^your partner$/);
    expect(path(page)).toBe('/');
    await page.keyboard.press('Space');
    // The partner's branch skips the child's age.
    await page.waitForURL((url) => url.pathname === '/q_worry');
    await interactive(page);
    await tabTo(page, /Strangers/);
    await page.keyboard.press('Space');
    await tabTo(page, /^Continue$/);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/q_note');
    await interactive(page);
    await tabTo(page, /^Continue$/);
    await page.keyboard.press('Enter');
    // The plan being built moves on by itself once its second is up.
    await page.waitForURL((url) => url.pathname === '/q_build');
    await page.waitForURL((url) => url.pathname === '/signup', { timeout: PATIENCE_MS });
    await interactive(page);
    await page.locator('input[type="email"]').focus();
    await page.keyboard.type(uniqueEmail('quiz-keys'));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    await interactive(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'A plan for your partner',
    );
    const userId = (await signupField(page, 'userId')) as string;
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).focus();
    await page.keyboard.press('Enter');
    await continueAfterReceipt(page);
    expect((await portalSubscriptions(session, userId)).map((each) => each.status)).toContain(
      'active',
    );
    const row = await session.worker.portalDb
      .prepare('SELECT quiz_answers FROM users WHERE id = ?')
      .bind(userId)
      .first<{ quiz_answers: string | null }>();
    expect(JSON.parse(row?.quiz_answers ?? 'null')).toEqual({
      who: 'partner',
      worry: ['strangers'],
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});
