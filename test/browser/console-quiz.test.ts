import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_PICTURES_PATH } from '../../shared/console-api/pictures';
import { pngOf } from '../fixtures/png';
import { runAxe, seriousViolations } from './a11y-checks';
import { click, expectedRefusal, openArea, reviewAndPublish, typeInto } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { continueAfterReceipt, payButton, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, signupField, uniqueEmail } from './visitor-steps';

/**
 * A marketer composes a quiz in Chromium's console (docs/marketers.md, "A quiz funnel, step by
 * step") and a visitor walks it: five questions made on the Quiz page (one choice, a number,
 * picture choices from the library, an information screen, the plan being built), each
 * previewed, put first in the default flow under Edit and publish, the first question's choices
 * led apart, the checkout's headline saying the answer, all published; a new visitor then
 * answers by the branch, reads their answer on the checkout, pays with the test card, and the
 * product API's account holds the answers.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** Makes a question on the Quiz page, and waits for its own page. */
async function newQuestion(
  page: Page,
  typed: { name: string; kind: string; key?: string; title: string },
) {
  const quiz = await openArea(page, 'Quiz');
  const form = quiz.getByRole('group', { name: 'New question' });
  await typeInto(form.getByLabel('Name (its address)'), typed.name);
  await form.getByLabel('Kind').selectOption({ label: typed.kind });
  if (typed.key) await typeInto(form.getByLabel('Answer key'), typed.key);
  await typeInto(form.getByLabel('Question (English)'), typed.title);
  await click(form.getByRole('button', { name: 'Create question' }));
  await page.getByRole('heading', { name: `Question ${typed.name}` }).waitFor();
  return page.getByRole('region', { name: `Question ${typed.name}` });
}

/** Presses a flow's Up for `screen` until it is first. */
async function toTheTop(edit: Locator, screen: string) {
  const up = edit.getByRole('button', { name: `Move ${screen} up in default` });
  while ((await up.getAttribute('aria-disabled')) !== 'true') await click(up);
}

describe('a quiz composed in the console', () => {
  // slow: the whole of a quiz funnel's life in one walk, as its done-when asks: five questions
  // made in the console, a picture uploaded, a flow led and published, then a visitor who
  // answers, signs up and pays with 4242, the product API's sign-up read back (13–19 s).
  it('is made, led and published by a marketer, then answered and paid for by a visitor', async () => {
    const marketer = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
    const { page } = marketer;
    await page.goto('/console/quiz');

    const who = await newQuestion(page, {
      name: 'q_who',
      kind: 'One choice',
      key: 'who',
      title: 'Who do you want to keep safe?',
    });
    await typeInto(who.getByLabel('Choice 1 (English)'), 'your child');
    await typeInto(who.getByLabel('Choice 1’s value'), 'child');
    await typeInto(who.getByLabel('Choice 2 (English)'), 'your partner');
    await typeInto(who.getByLabel('Choice 2’s value'), 'partner');
    // The preview draws the draft's question as a visitor's phone shows it.
    const frame = page.frameLocator('iframe[title="Preview of q_who"]');
    await frame.getByRole('button', { name: 'your partner' }).waitFor();
    const age = await newQuestion(page, {
      name: 'q_age',
      kind: 'A number',
      key: 'age',
      title: 'How old is your child?',
    });
    await typeInto(age.getByLabel('Highest'), '18');
    await newQuestion(page, {
      name: 'q_note',
      kind: 'Information, then Continue',
      title: 'Families like yours check in twice a day',
    });
    await newQuestion(page, {
      name: 'q_build',
      kind: 'Building the plan (timed)',
      title: 'Building your plan',
    });
    // A picture choice, its pictures from the library (uploaded as the Content page does).
    const png = [...(await pngOf(320, 240, [52, 120, 190]))];
    const uploaded = await page.evaluate(
      async ([path, bytes]) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream' },
          body: new Uint8Array(bytes),
        });
        return response.status;
      },
      [CONSOLE_PICTURES_PATH, png] as const,
    );
    expect(uploaded).toBe(201);
    const look = await newQuestion(page, {
      name: 'q_look',
      kind: 'Picture choices',
      key: 'look',
      title: 'Which phone do they use?',
    });
    for (const [index, label] of ['An iPhone', 'An Android phone'].entries()) {
      await typeInto(look.getByLabel(`Choice ${index + 1} (English)`), label);
      const picker = look.getByLabel(`Choice ${index + 1}’s picture`);
      await picker.locator('option', { hasText: '320×240' }).waitFor({ state: 'attached' });
      await picker.selectOption({ index: 1 });
    }
    expect(seriousViolations(await runAxe(page))).toEqual([]);

    // The checkout's headline says who the visitor keeps safe.
    const content = await openArea(page, 'Content');
    await content.getByLabel('Screen', { exact: true }).selectOption('checkout_v3_tr');
    await click(content.getByRole('button', { name: /^Title and intro, .*: edit its copy$/ }));
    await typeInto(
      content.getByRole('textbox', { name: /screens\.checkout_v3_tr\.title/ }).first(),
      'A plan for {{answer.who|your family}}',
    );

    // The default flow: the five questions first, in place of the landing and the search.
    const edit = await openArea(page, 'Edit and publish');
    await click(edit.locator('summary', { hasText: /^Flow default\b/ }));
    for (const question of ['q_build', 'q_note', 'q_look', 'q_age', 'q_who']) {
      await edit.getByLabel('Screen to add to default').selectOption(question);
      await click(edit.getByRole('button', { name: 'Add screen to default' }));
      await toTheTop(edit, question);
    }
    await click(edit.getByRole('button', { name: 'Remove one_pager from default' }));
    await click(edit.getByRole('button', { name: 'Remove searching from default' }));

    // Back on the first question: the partner skips the child's age.
    await openArea(page, 'Quiz');
    await click(page.getByRole('link', { name: 'q_who' }));
    const routes = page.getByRole('group', { name: 'In flow default, after this question' });
    await routes.getByLabel('“your child” goes to').selectOption('q_age');
    await routes.getByLabel('Any other answer goes to').selectOption('q_look');
    await reviewAndPublish(page, 'a quiz first');
    expect(marketer.problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
    await marketer.context.close();

    // A visitor: the partner's branch, then the sign-up, 4242 and the receipt.
    const {
      context,
      page: visitor,
      problems,
    } = await session.newVisitor({
      viewport: { width: 390, height: 844 },
    });
    await visitor.goto('/');
    await visitor.getByRole('button', { name: 'your partner' }).click();
    await visitor.waitForURL((url) => url.pathname === '/q_look');
    await visitor.getByRole('button', { name: 'An iPhone' }).click();
    await visitor.waitForURL((url) => url.pathname === '/q_note');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await visitor.waitForURL((url) => url.pathname === '/q_build');
    // The plan is built, and the visitor moves on by themselves.
    await visitor.waitForURL((url) => url.pathname === '/signup', { timeout: PATIENCE_MS });
    await interactive(visitor);
    await visitor.locator('input[type="email"]').fill(uniqueEmail('console-quiz'));
    await visitor.locator('#continue-button').click();
    await visitor.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    await interactive(visitor);
    expect(await visitor.getByRole('heading', { level: 1 }).textContent()).toBe(
      'A plan for your partner',
    );
    const userId = (await signupField(visitor, 'userId')) as string;
    await typeTestCard(visitor, '4242 4242 4242 4242');
    await payButton(visitor).click();
    await continueAfterReceipt(visitor);
    const row = await session.worker.portalDb
      .prepare('SELECT quiz_answers FROM users WHERE id = ?')
      .bind(userId)
      .first<{ quiz_answers: string | null }>();
    expect(JSON.parse(row?.quiz_answers ?? 'null')).toEqual({ who: 'partner', look: 'first' });
    expect(problems).toEqual([]);
    await context.close();
  });
});
