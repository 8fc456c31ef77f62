import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API } from '../../shared/console-api/config';
import { CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import {
  click,
  expectedRefusal,
  headingOf,
  liveState,
  newVisitorHtml,
  openArea,
  reviewAndPublish,
  typeInto,
} from './console-steps';
import { LIVE_TITLE } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive } from './visitor-steps';

/**
 * The walk that says the console tells the truth and a team can work in it, by mouse only in
 * Chromium against the built worker, with a second person's approval required
 * (PUBLISH_APPROVAL=required): two marketers, each in a browser of their own on one shared draft
 * (`/console?as=`, docs/marketers.md "Working as a team"); the first edits and publishes, the
 * second approves each publish, as every change to what visitors get needs (worker/config/gate.ts).
 * Each goes from page to page of the console as a marketer does, by its navigation.
 *
 * 1. A landing test on route default is started and its b (`one_pager_ai`) rolled out from its
 *    decision dialog; the overview, *Test a visitor*'s preview, the content editor previewing as
 *    route default and the Copy area's draft preview then all show b's landing, and a new visitor
 *    of `/` is served the text the content editor's preview drew.
 * 2. A content variant of a composed screen is published: the review and History list it.
 * 3. On another route, in the same layer (the form offers its free space), a landing test whose
 *    b changes the headline in English only is started; visitors in English meet both headlines,
 *    and a German visitor sees what the console said German visitors would see.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession({ bindings: { PUBLISH_APPROVAL: 'required' } });
});
afterAll(() => session?.stop());

const AI_TITLE = 'AI-powered phone location';
const SPRING_TITLE = 'Find any phone in a minute';

/** A marketer's own browser on the console's Overview at a laptop's width, signed in as `email`. */
async function marketer(email: string) {
  const visitor = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
  await visitor.page.goto(`/console?as=${encodeURIComponent(email)}`);
  await visitor.page.getByRole('heading', { level: 2, name: 'Overview' }).waitFor();
  await visitor.page.getByText(`Signed in as ${email}`).waitFor();
  return visitor;
}

/** What a tab shows of the shared draft and its review, and the worker's draft as it answers. */
async function draftFacts(page: Page): Promise<string> {
  const shown = await page
    .locator('section[aria-label="Shared draft"], .review-result, [role="alert"]')
    .allTextContents();
  const worker = await page.evaluate(async (path) => {
    const answer = await fetch(path);
    const { draft } = (await answer.json()) as {
      draft?: { revision: number; editors: string[]; editedBy: string; review: unknown };
    };
    return draft && { ...draft, document: undefined, base: undefined };
  }, CONSOLE_DRAFT_API.draft);
  return JSON.stringify({ shown, worker });
}

/**
 * Review and publish a draft that needs a second person: `author`, on the publish page, sends it
 * for review with `note`; `approver`, in the other browser, reloads onto the shared draft, opens
 * the publish page, reviews and approves it; `author` checks for the approval and publishes.
 */
async function publishApproved(author: Page, approver: Page, note: string): Promise<void> {
  await openArea(author, 'Edit and publish');
  await click(author.getByRole('button', { name: 'Review changes' }));
  await author.getByRole('list', { name: 'Changes that need approval' }).waitFor();
  expect(await author.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
  const noteField = author.getByLabel('Note for the reviewer (optional)');
  await typeInto(noteField, note);
  // A save landing re-checks the review, which draws its form anew ("Checking the draft…" in
  // between). Under a full run's load the review once went with no note, which typing into the
  // form on its way out would explain: the note is seen in the field before it is sent.
  await expect
    .poll(async () => {
      if ((await noteField.inputValue()) !== note) await typeInto(noteField, note);
      return noteField.inputValue();
    })
    .toBe(note);
  await click(author.getByRole('button', { name: 'Send for review' }));
  await author.getByText(/Waiting for someone who did not edit it to approve/).waitFor();
  await approver.reload();
  await openArea(approver, 'Edit and publish');
  await click(approver.getByRole('button', { name: 'Review changes' }));
  try {
    await approver.getByText(`asks you to approve this draft: “${note}”`).waitFor();
  } catch (error) {
    // Seen once under a full run's load, unexplained: say what each tab and the worker held.
    throw new Error(
      `${String(error)}\nauthor: ${await draftFacts(author)}\napprover: ${await draftFacts(approver)}`,
    );
  }
  await click(approver.getByRole('button', { name: 'Approve this draft' }));
  await approver.getByText(/^Approved by /).waitFor();
  await click(author.getByRole('button', { name: 'Check for an approval' }));
  await reviewAndPublish(author, note);
}

/** The worker's answer to a publish of the shared draft as it stands, asked by this page alone. */
function publishAlone(page: Page): Promise<number> {
  return page.evaluate(
    async ({ draftPath, publishPath }) => {
      const { draft } = (await (await fetch(draftPath)).json()) as {
        draft: { revision: number; base: number; document: unknown };
      };
      const answer = await fetch(publishPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ base: draft.base, document: draft.document, draft: draft.revision }),
      });
      return answer.status;
    },
    { draftPath: CONSOLE_DRAFT_API.draft, publishPath: CONSOLE_API.publish },
  );
}

/** The shared draft's review as the worker holds it now (null: none, or voided by a save). */
function draftReview(page: Page): Promise<unknown> {
  return page.evaluate(async (path) => {
    const { draft } = (await (await fetch(path)).json()) as { draft: { review: unknown } | null };
    return draft?.review ?? null;
  }, CONSOLE_DRAFT_API.draft);
}

/** A History card's facts, term to description. */
async function factsOf(card: Locator): Promise<Record<string, string>> {
  return card
    .locator('dl.facts')
    .evaluate((list) =>
      Object.fromEntries(
        [...list.querySelectorAll('div')].map((row) => [
          row.querySelector('dt')?.textContent ?? '',
          row.querySelector('dd')?.textContent ?? '',
        ]),
      ),
    );
}

/** The refusals this walk provokes on purpose: publishes a second person must approve first. */
const heldAtTheGate = (problem: string) => /^403 .*\/console\/api\/publish/.test(problem);

/**
 * What a landing's words leave out: pickers' options, and what is hidden from a screen reader
 * (the reviews' carousel repeats its first review for its loop, until the page's script runs).
 */
const LEFT_OUT = 'select, script, style, template, [aria-hidden="true"]';

/** A page's landing in words: its main content's text, as a screen reader would read it. */
function landingText(main: Locator): Promise<string> {
  return main.evaluate((node, LEFT_OUT) => {
    const copy = node.cloneNode(true) as HTMLElement;
    for (const left of copy.querySelectorAll(LEFT_OUT)) left.remove();
    return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
  }, LEFT_OUT);
}

/** Creates a test of `preset` on the Experiments page and starts it, in the draft. */
async function startTest(
  page: Page,
  test: { preset: string; name: string; route: string; b: [label: string, value: string] },
): Promise<void> {
  const area = await openArea(page, 'Experiments');
  await area.getByLabel('What to test').selectOption({ label: test.preset });
  await typeInto(area.getByLabel('Experiment name'), test.name);
  await click(area.getByRole('checkbox', { name: test.route, exact: true }));
  // The layer's free space for the test's own route, as the worker's validator counts it.
  await area.getByText('Free in layer landing: 0–100%.').waitFor();
  expect(await area.getByLabel('Range in the layer to (%)').inputValue()).toBe('100');
  await area.getByLabel(test.b[0]).selectOption(test.b[1]);
  await click(area.getByRole('button', { name: 'Create draft experiment' }));
  const card = area.getByRole('article', { name: new RegExp(test.name) });
  await click(card.getByRole('button', { name: `Start ${test.name}…` }));
  await click(
    page
      .getByRole('dialog', { name: `Start ${test.name}?` })
      .getByRole('button', { name: `Start ${test.name}` }),
  );
}

/** Step 1: the AI landing tested on route default, then its b rolled out, each publish approved. */
async function rollOutAiLanding(ada: Page, bob: Page): Promise<void> {
  await startTest(ada, {
    preset: 'Landing page',
    name: 'AI landing',
    route: 'default',
    b: ['The landing screen variant b shows', 'one_pager_ai'],
  });
  // The draft is shared: the second browser, reloaded, has the new test in it.
  await bob.reload();
  await (await openArea(bob, 'Experiments'))
    .getByRole('article', { name: /AI landing/ })
    .getByText(/^New in your draft/)
    .waitFor();
  await publishApproved(ada, bob, 'AI landing test');
  const { head } = await liveState(ada);
  expect(head).toMatchObject({
    author: 'ada@example.com',
    approver: 'bob@example.com',
    note: 'AI landing test',
  });
  // History names who approved it.
  const entry = (await openArea(ada, 'History')).getByRole('article', {
    name: new RegExp(`^${head?.id} live`),
  });
  expect(await entry.getByText('bob@example.com').count()).toBe(1);

  const card = (await openArea(ada, 'Experiments')).getByRole('article', { name: /AI landing/ });
  await click(card.getByRole('button', { name: 'End AI landing with a decision…' }));
  const end = ada.getByRole('dialog', { name: 'End AI landing' });
  await end.getByText('Reading its results…').waitFor({ state: 'detached' });
  await click(end.getByRole('radio', { name: /^Won/ }));
  await click(end.getByRole('radio', { name: 'Roll variant b out to the experiment’s audience' }));
  await typeInto(end.getByLabel('Reason (required)'), 'the AI landing is our new standard');
  await click(end.getByRole('button', { name: 'Record the decision' }));
  await publishApproved(ada, bob, 'roll out the AI landing');
  const shipped = (await liveState(ada)).live.experiments.experiments['ai-landing'];
  expect(shipped?.decision).toMatchObject({ action: 'roll_out', variant: 'b' });
}

/** Step 1's checks: everything the console shows of route default is b's landing. */
async function everyViewShowsTheRollOut(ada: Page): Promise<string> {
  const overview = await openArea(ada, 'Overview');
  await overview
    .getByText('On route default: flow default, opens with the landing one_pager_ai')
    .waitFor();
  expect(await overview.getByRole('article').first().textContent()).toContain(
    '(AI landing’s b is rolled out)',
  );

  // Test a visitor: a link from no ad, so route default; its preview opens b's landing.
  const traffic = await openArea(ada, 'Traffic');
  await typeInto(traffic.getByLabel('Ad link'), 'https://funnel.example/');
  await click(traffic.getByRole('button', { name: 'Test visitor' }));
  await traffic
    .getByText(
      'Against your draft, this visitor gets route default: flow default, opens with the landing one_pager_ai',
    )
    .waitFor();
  const [routePreview] = await Promise.all([
    ada.waitForEvent('popup'),
    click(traffic.getByRole('link', { name: /Preview route default/ })),
  ]);
  await routePreview.locator('h1').filter({ hasText: AI_TITLE }).waitFor();
  await routePreview.close();

  // The content editor, its page opened after the roll-out, moves to the screen route default's
  // visitors get (the default visitor's route) as it opens, and previewing as route default
  // keeps it there.
  const content = await openArea(ada, 'Content');
  await content.getByText(/^Route default’s visitors get one_pager_ai/).waitFor();
  await content.getByLabel('Preview as route').selectOption('default');
  await content.getByText('The preview shows route default’s visitors.').waitFor();
  expect(await content.getByLabel('Screen', { exact: true }).inputValue()).toBe('one_pager_ai');
  const phone = ada.frameLocator('iframe[title$="phone width"]');
  await phone.locator('h1').filter({ hasText: AI_TITLE }).waitFor();
  const drawn = await landingText(phone.locator('main'));

  // The Copy area's draft preview of one of the landing's texts.
  const copy = await openArea(ada, 'Copy');
  await typeInto(copy.getByLabel('Find a text'), 'Our AI combines');
  await click(copy.getByRole('button', { name: /screens\.one_pager_ai\.lead/ }));
  const lead = copy.getByRole('article', { name: 'screens.one_pager_ai.lead' });
  await click(lead.getByRole('button', { name: 'Preview the draft in English' }));
  const [copyPreview] = await Promise.all([
    ada.waitForEvent('popup'),
    click(lead.getByRole('link', { name: 'Open the English preview with your draft' })),
  ]);
  await copyPreview.locator('h1').filter({ hasText: AI_TITLE }).waitFor();
  await copyPreview.close();
  return drawn;
}

/** Step 2: a composed landing published, then a content variant of it, each approved. */
async function composedVariant(ada: Page, bob: Page): Promise<void> {
  const content = await openArea(ada, 'Content');
  const newScreen = content.getByRole('group', { name: 'New screen' });
  await newScreen.getByLabel('Start from').selectOption('one_pager');
  await typeInto(newScreen.getByLabel('Name (its address)'), 'spring_landing');
  await click(newScreen.getByRole('button', { name: 'Create screen' }));
  // Content is what visitors see: approved by a second person like any change.
  await publishApproved(ada, bob, 'spring landing composed');

  // Back on the Content page, the new screen is the one edited.
  await openArea(ada, 'Content');
  expect(await content.getByLabel('Screen', { exact: true }).inputValue()).toBe('spring_landing');
  await typeInto(content.getByLabel('New variant'), 'reviews_first');
  await click(content.getByRole('button', { name: 'Create', exact: true }));
  for (const _ of [1, 2, 3, 4, 5]) {
    await click(content.getByRole('button', { name: 'Move up: Reviews' }));
  }
  await openArea(ada, 'Edit and publish');
  await click(ada.getByRole('button', { name: 'Review changes' }));
  const said =
    'spring_landing: new variant reviews_first: Reviews moved above Phone form content.composed.spring_landing.variants.reviews_first';
  const changes = ada.getByRole('list', { name: 'Changes this publish makes' });
  await changes.getByText(said).waitFor();
  expect(await changes.getByRole('listitem').allTextContents()).toEqual([said]);
  await publishApproved(ada, bob, 'reviews first on spring');

  const state = await liveState(ada);
  expect(state.live.content.composed?.spring_landing?.variants?.reviews_first).toBeDefined();
  const version = (await openArea(ada, 'History')).getByRole('article', {
    name: `${state.head?.id} live`,
  });
  await click(version.getByText(/^Changes \(1\)/));
  await version.getByText(said).waitFor();
}

/** Step 3's route: TikTok ads' visitors, on flow default, which the split does not draw. */
async function addSpringRoute(ada: Page): Promise<void> {
  const traffic = await openArea(ada, 'Traffic');
  await typeInto(traffic.getByLabel('Audience name'), 'tiktok_ads');
  await traffic.getByLabel('Source to add to condition 1').selectOption('tiktok');
  await click(traffic.getByRole('button', { name: 'Add value to condition 1' }));
  await click(traffic.getByRole('button', { name: 'Save audience' }));
  await typeInto(traffic.getByLabel('Route name'), 'spring');
  await click(traffic.getByRole('button', { name: 'Add route' }));
}

/**
 * Step 3: an English-only headline variant of route spring's landing, tested there in layer
 * landing; returns the headline the console draws for German visitors, whom it says the test
 * leaves out.
 */
async function englishOnlyHeadlineTest(ada: Page, bob: Page): Promise<string> {
  await addSpringRoute(ada);
  const content = await openArea(ada, 'Content');
  await content.getByLabel('Preview as route').selectOption('spring');
  await content.getByLabel('Screen', { exact: true }).selectOption('one_pager');
  const phone = ada.frameLocator('iframe[title$="phone width"]');
  await phone.locator('h1').filter({ hasText: LIVE_TITLE }).waitFor();
  await typeInto(content.getByLabel('New variant'), 'spring_headline');
  await click(content.getByRole('button', { name: 'Create', exact: true }));
  await typeInto(content.getByLabel(/^Headline/), SPRING_TITLE);
  const said = content.getByRole('list', { name: 'What visitors in other languages see' });
  await said.getByText(/^Visitors reading German are not shown a test of this variant/).waitFor();
  // What German visitors see, then: the screen without the variant, in German.
  await content.getByLabel('Version', { exact: true }).selectOption('');
  await content.getByLabel('Language', { exact: true }).selectOption('de');
  await ada
    .getByTitle('Preview: Landing: classic (one_pager), as route spring shows it, in German', {
      exact: false,
    })
    .waitFor();
  const german = (await phone.locator('html[lang="de"] h1').textContent()) ?? '';

  await startTest(ada, {
    preset: 'Landing content (headline, picture, sections)',
    name: 'Spring headline',
    route: 'spring',
    b: ['The content variant b shows', 'one_pager:spring_headline'],
  });
  await publishApproved(ada, bob, 'English headline test on spring');
  const live = (await liveState(ada)).live;
  expect(live.experiments.experiments['spring-headline']).toMatchObject({
    status: 'running',
    layer: 'landing',
  });
  expect(live.content.screens.one_pager?.variants?.spring_headline?.copy).toEqual({
    en: { 'screens.one_pager.title': SPRING_TITLE },
  });
  return german;
}

/** The headline a new visitor of route spring gets, in `language`, as the worker serves it. */
async function springHeadline(language: string): Promise<string> {
  const path = `/?utm_source=tiktok&custom_lng=${language}`;
  return headingOf(await newVisitorHtml(session, path, { 'accept-language': language }));
}

describe('the console tells the truth, and a team works in it, by mouse', () => {
  // slow: two marketers' consoles by mouse through a rollout, previews and four approved publishes
  it('rolls out, previews, publishes content and an English-only test, two people approving', async () => {
    const ada = await marketer('ada@example.com');
    const bob = await marketer('bob@example.com');

    await rollOutAiLanding(ada.page, bob.page);
    const drawn = await everyViewShowsTheRollOut(ada.page);
    const visitor = await session.newVisitor();
    await visitor.page.goto('/');
    await interactive(visitor.page);
    expect(await landingText(visitor.page.locator('main'))).toBe(drawn);
    expect(visitor.problems).toEqual([]);
    await visitor.context.close();

    await composedVariant(ada.page, bob.page);

    const german = await englishOnlyHeadlineTest(ada.page, bob.page);
    expect(german).not.toBe(LIVE_TITLE);
    // English visitors of the route meet both headlines; German ones only what the console drew.
    const english = new Set<string>();
    for (let i = 0; i < 16 && english.size < 2; i++) english.add(await springHeadline('en'));
    expect([...english].sort()).toEqual([LIVE_TITLE, SPRING_TITLE].sort());
    for (let i = 0; i < 6; i++) expect(await springHeadline('de')).toBe(german);

    expect(ada.problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
    expect(bob.problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
  }, 240_000);

  // slow: three marketers' consoles by mouse through two refused publishes and two approved ones
  it('holds a flow edit, another’s approved change and a roll back for a second person; History names each', async () => {
    const ada = await marketer('ada@example.com');
    const bob = await marketer('bob@example.com');
    const carol = await marketer('carol@example.com');
    const before = await liveState(ada.page);

    // Ada edits a flow: the review asks for a second person, and the worker refuses it alone.
    const edit = await openArea(ada.page, 'Edit and publish');
    await click(edit.locator('summary', { hasText: 'Flow default' }));
    await click(edit.getByRole('button', { name: 'Remove searching from default' }));
    await click(ada.page.getByRole('button', { name: 'Review changes' }));
    const needed = ada.page.getByRole('list', { name: 'Changes that need approval' });
    await needed.getByText(/^Flow default: changes what visitors see/).waitFor();
    expect(await ada.page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    expect(await publishAlone(ada.page)).toBe(403);

    // Bob approves it, then adds a change of his own: the approval does not cover it, and
    // neither of them, both its editors now, may approve it: Carol does.
    await typeInto(ada.page.getByLabel('Note for the reviewer (optional)'), 'no searching');
    await click(ada.page.getByRole('button', { name: 'Send for review' }));
    await bob.page.reload();
    const bobEdit = await openArea(bob.page, 'Edit and publish');
    await click(bob.page.getByRole('button', { name: 'Review changes' }));
    await click(bob.page.getByRole('button', { name: 'Approve this draft' }));
    await bob.page.getByText(/^Approved by /).waitFor();
    await click(bobEdit.locator('summary', { hasText: 'Flow lp1ch2' }));
    await click(bobEdit.getByRole('button', { name: /^Remove searching from lp1ch2$/ }));
    await expect.poll(() => draftReview(bob.page)).toBe(null);
    expect(await publishAlone(bob.page)).toBe(403);
    await publishApproved(bob.page, carol.page, 'no searching anywhere');
    const published = await liveState(ada.page);
    expect(published.head?.seq).toBe((before.head?.seq ?? 0) + 1);
    await ada.page.reload();
    const history = await openArea(ada.page, 'History');
    const entry = history.getByRole('article', { name: `${published.head?.id} live` });
    await entry.getByText('ada@example.com, bob@example.com').waitFor();
    expect(await factsOf(entry)).toMatchObject({
      'Edited by': 'ada@example.com, bob@example.com',
      'Review asked by': 'bob@example.com',
      'Approved by': 'carol@example.com',
    });

    // Ada rolls back alone: the gate offers the draft for review (or a break-glass with a reason).
    const previous = before.head?.id ?? '';
    const older = history.getByRole('article', { name: previous, exact: true });
    await click(older.getByRole('button', { name: `Roll back to ${previous}…` }));
    await older.getByText(/A second person approves each change here/).waitFor();
    await click(
      older.getByRole('button', { name: `Break the glass: Confirm roll back to ${previous}` }),
    );
    // No reason given: nothing is published, the reason field has the focus.
    expect(await ada.page.evaluate(() => document.activeElement?.getAttribute('id'))).toMatch(
      /-note$/,
    );
    expect((await liveState(ada.page)).head?.seq).toBe(published.head?.seq);
    await click(older.getByRole('button', { name: `Put ${previous} in the draft for review` }));
    await ada.page
      .locator('#history-status', { hasText: `${previous} is in the draft now` })
      .waitFor();
    await publishApproved(ada.page, bob.page, `back to ${previous}`);
    const restored = await liveState(ada.page);
    expect(restored.live.flows.flows).toEqual(before.live.flows.flows);
    await openArea(ada.page, 'History');
    expect(
      await factsOf(history.getByRole('article', { name: `${restored.head?.id} live` })),
    ).toMatchObject({
      'Edited by': 'ada@example.com',
      'Review asked by': 'ada@example.com',
      'Approved by': 'bob@example.com',
    });

    for (const marketer of [ada, bob, carol]) {
      expect(
        marketer.problems.filter((problem) => !expectedRefusal(problem) && !heldAtTheGate(problem)),
      ).toEqual([]);
    }
  }, 240_000);
});
