// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $contentCatalogue, $pictureLibrary } from '../../../console/content/stores/content-editor';
import { useStore } from '../../../console/kit/stores/atom';
import { $draft, addScreen, startDraft } from '../../../console/kit/stores/draft';
import { $page, openPage } from '../../../console/kit/stores/page';
import { $review } from '../../../console/kit/stores/review';
import { Quiz } from '../../../console/quiz/Quiz';
import { CONSOLE_PICTURES_PATH } from '../../../shared/console-api/pictures';
import { checkFullDocument } from '../../../worker/config/document';
import { consoleState, EMPTY_CATALOGUE } from './fixtures';

/**
 * The console's Quiz pages (console/quiz/): a question made with its name, kind, key and English
 * title, each checked as Create is pressed; its own page then edits its texts and choices into
 * the draft, which the worker's own check publishes once a flow asks it; a question a flow asks
 * cannot be deleted.
 */

/** A question of the draft, with two choices. */
const WHO = {
  kind: 'single',
  key: 'who',
  title: { en: 'Who?' },
  choices: [
    { value: 'child', label: { en: 'your child' } },
    { value: 'partner', label: { en: 'your partner' } },
  ],
};

/** An information screen, with nothing but its title. */
const NOTE = { kind: 'info' as const, title: { en: 'Good to know' } };

/** The draft with `questions` as its quiz's. */
function putQuestions(questions: Record<string, typeof NOTE>) {
  const draft = $draft.get();
  if (!draft) throw new Error('no draft');
  const content = { ...draft.document.content, questions };
  $draft.set({ ...draft, document: { ...draft.document, content } });
}

function QuizPage() {
  const page = useStore($page);
  return page.area === 'quiz' ? <Quiz question={page.id} /> : null;
}

beforeEach(() => {
  // The worker's preview and catalogue are test/worker/console/content-preview.test.ts's and
  // the Chromium walk's: here a worker that answers none.
  vi.stubGlobal('fetch', async () =>
    Response.json({ ok: false, error: 'unavailable' }, { status: 503 }),
  );
  startDraft(consoleState());
  act(() => openPage('quiz'));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  // The stores are the run's: the next file's console starts without this one's library.
  $pictureLibrary.set({ kind: 'loading' });
});

describe('the console’s quiz', () => {
  it('makes a question, edits its choices and puts it in a flow the worker publishes', async () => {
    const user = userEvent.setup();
    render(<QuizPage />);
    expect(screen.getByText('No questions yet.')).toBeTruthy();
    const form = within(screen.getByRole('group', { name: 'New question' }));
    await user.click(form.getByRole('button', { name: 'Create question' }));
    expect(form.getByText('Give the question a name, such as q_who.')).toBeTruthy();
    expect(form.getByText('Write the question, in English.')).toBeTruthy();
    fireEvent.change(form.getByLabelText('Name (its address)'), {
      target: { value: 'checkout_q' },
    });
    fireEvent.change(form.getByLabelText('Answer key'), { target: { value: 'Who' } });
    fireEvent.change(form.getByLabelText('Question (English)'), {
      target: { value: 'Who do you want to keep safe?' },
    });
    expect(form.getByText(/begins like the screens in code/)).toBeTruthy();
    expect(form.getByText(/A key is lower-case letters/)).toBeTruthy();
    fireEvent.change(form.getByLabelText('Name (its address)'), { target: { value: 'q_who' } });
    fireEvent.change(form.getByLabelText('Answer key'), { target: { value: 'who' } });
    await user.click(form.getByRole('button', { name: 'Create question' }));

    // Its own page: the choices renamed, one added and moved up.
    expect($page.get()).toEqual({ area: 'quiz', id: 'q_who' });
    const page = within(await screen.findByRole('region', { name: 'Question q_who' }));
    fireEvent.change(page.getByLabelText('Choice 1 (English)'), {
      target: { value: 'your child' },
    });
    fireEvent.change(page.getByLabelText('Choice 1’s value'), { target: { value: 'child' } });
    await user.click(page.getByRole('button', { name: 'Add a choice' }));
    fireEvent.change(page.getByLabelText('Choice 3 (English)'), {
      target: { value: 'your parents' },
    });
    await user.click(page.getByRole('button', { name: 'Move choice 3 up' }));
    await user.click(page.getByRole('button', { name: 'Remove choice 3' }));
    const asked = $draft.get()?.document.content.questions?.q_who;
    expect(asked).toMatchObject({
      kind: 'single',
      key: 'who',
      title: { en: 'Who do you want to keep safe?' },
      choices: [
        { value: 'child', label: { en: 'your child' } },
        { value: 'answer_3', label: { en: 'your parents' } },
      ],
    });

    // In a flow, before the sign-up: the worker's own check takes the draft.
    act(() => addScreen('default', 'q_who'));
    const flows = $draft.get()?.document.flows.flows;
    const listed = flows?.default ?? [];
    const moved = ['q_who', ...listed.filter((ref) => ref !== 'q_who')];
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    const document = {
      ...draft.document,
      flows: { ...draft.document.flows, flows: { ...draft.document.flows.flows, default: moved } },
    };
    act(() => $draft.set({ ...draft, document }));

    // Where its answers lead in that flow: the child past the landing, to the search.
    const routes = within(
      page.getByRole('group', { name: 'In flow default, after this question' }),
    );
    await user.selectOptions(routes.getByLabelText('“your child” goes to'), 'searching');
    expect($draft.get()?.document.flows.branches).toEqual({
      default: {
        q_who: {
          branches: [{ when: { test: 'equals', key: 'who', value: 'child' }, next: 'searching' }],
        },
      },
    });
    const branched = $draft.get()?.document;
    const checked = checkFullDocument(branched);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    // Back to the flow's order: no branch is left.
    await user.selectOptions(routes.getByLabelText('“your child” goes to'), '');
    expect($draft.get()?.document.flows).not.toHaveProperty('branches');

    // A flow asks it: it stays.
    await user.click(page.getByRole('button', { name: 'Delete question q_who' }));
    expect(page.getByRole('alert').textContent).toBe(
      'Flows default ask q_who: take it out of them first.',
    );
    expect($draft.get()?.document.content.questions?.q_who).toBeDefined();
  });

  it('lists the questions with their kind and the flows that ask them', async () => {
    putQuestions({ q_note: NOTE });
    render(<QuizPage />);
    const row = screen.getByRole('link', { name: 'q_note' }).closest('li');
    expect(row?.textContent).toContain(
      'Information, then Continue: “Good to know”, in no flow yet',
    );
  });

  it('tests a visitor’s answers on the flow, as the worker would take them on', async () => {
    const user = userEvent.setup();
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    const age = { kind: 'number', key: 'age', title: { en: 'How old?' }, min: 1, max: 18 };
    const flows = {
      ...draft.document.flows,
      flows: {
        ...draft.document.flows.flows,
        quiz: ['q_who', 'q_age', 'signup', 'checkout_v3_tr'],
      },
      branches: {
        quiz: {
          q_who: {
            branches: [{ when: { test: 'equals', key: 'who', value: 'partner' }, next: 'signup' }],
          },
        },
      },
    };
    $draft.set({
      ...draft,
      document: {
        ...draft.document,
        content: { ...draft.document.content, questions: { q_who: WHO, q_age: age } },
        flows,
      } as typeof draft.document,
    });
    render(<QuizPage />);
    const walk = within(screen.getByRole('region', { name: 'Test a visitor' }));
    expect(walk.getByRole('status').textContent).toBe(
      'Walks: q_who → q_age → signup → checkout_v3_tr',
    );
    await user.selectOptions(walk.getByLabelText('q_who: Who?'), 'partner');
    expect(walk.getByRole('status').textContent).toBe('Walks: q_who → signup → checkout_v3_tr');
    const said = walk.getAllByText('who is partner → signup').map((found) => found.tagName);
    expect(said).toContain('LI');
    // The flow drawn as a graph for the eye (the list says it to a screen reader): a box per
    // screen, a line to the next from each but the last, an arrow per rule with its condition.
    const graph = document.querySelector('svg.quiz-graph');
    expect(graph?.getAttribute('aria-hidden')).toBe('true');
    expect(
      [...(graph?.querySelectorAll('.quiz-graph__name') ?? [])].map((n) => n.textContent),
    ).toEqual(['q_who', 'q_age', 'signup', 'checkout_v3_tr']);
    expect(graph?.querySelectorAll('.quiz-graph__next')).toHaveLength(3);
    expect(
      [...(graph?.querySelectorAll('.quiz-graph__label') ?? [])].map((n) => n.textContent),
    ).toEqual(['who is partner → signup']);
  });

  it('writes a question’s texts one language at a time, English shown beneath', async () => {
    const user = userEvent.setup();
    $contentCatalogue.set({
      kind: 'ready',
      catalogue: { ...EMPTY_CATALOGUE, languages: ['en', 'de'] },
    });
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    $draft.set({
      ...draft,
      document: {
        ...draft.document,
        content: { ...draft.document.content, questions: { q_who: WHO } },
      } as typeof draft.document,
    });
    act(() => openPage('quiz', 'q_who'));
    render(<QuizPage />);
    const page = within(await screen.findByRole('region', { name: 'Question q_who' }));
    await user.selectOptions(page.getByLabelText('Language'), 'de');
    const title = page.getByLabelText('Question (German)') as HTMLInputElement;
    expect(title.placeholder).toBe('Who?');
    fireEvent.change(title, { target: { value: 'Wen?' } });
    fireEvent.change(page.getByLabelText('Choice 1 (German)'), { target: { value: 'dein Kind' } });
    expect($draft.get()?.document.content.questions?.q_who).toMatchObject({
      title: { en: 'Who?', de: 'Wen?' },
      choices: [
        { label: { en: 'your child', de: 'dein Kind' } },
        { label: { en: 'your partner' } },
      ],
    });
    // A choice preselects a plan of the catalogue on the paywalls after it, or none.
    await user.selectOptions(page.getByLabelText('Choice 2 preselects'), 'monthly');
    expect($draft.get()?.document.content.questions?.q_who).toMatchObject({
      choices: [{ value: 'child' }, { value: 'partner', plan: 'monthly' }],
    });
    await user.selectOptions(page.getByLabelText('Choice 2 preselects'), '');
    const second = $draft.get()?.document.content.questions?.q_who;
    expect(second && 'choices' in second ? second.choices[1] : null).not.toHaveProperty('plan');
    // Emptied, German falls back to English again.
    fireEvent.change(page.getByLabelText('Question (German)'), { target: { value: '' } });
    expect($draft.get()?.document.content.questions?.q_who?.title).toEqual({ en: 'Who?' });
  });

  it('says the publish check’s refusals beside the fields they are about', async () => {
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    const listed = draft.document.flows.flows.default ?? [];
    $draft.set({
      ...draft,
      document: {
        ...draft.document,
        content: { ...draft.document.content, questions: { q_who: WHO } },
        flows: {
          ...draft.document.flows,
          flows: { ...draft.document.flows.flows, default: ['q_who', ...listed] },
          branches: { default: { q_who: { branches: [], otherwise: 'one_pager' } } },
        },
      } as typeof draft.document,
    });
    act(() => openPage('quiz', 'q_who'));
    render(<QuizPage />);
    const page = within(await screen.findByRole('region', { name: 'Question q_who' }));
    const price = 'must not name a price: prices come from the plan catalogue';
    act(() =>
      $review.set({
        kind: 'invalid',
        errors: [
          { path: 'content.questions.q_who.choices.1.label.en', message: price },
          { path: 'content.questions.q_who.choices.1.label.de', message: 'is not checked here' },
          {
            path: 'flows.branches.default.q_who.otherwise',
            message: '"one_pager" comes before this question: a visitor could go round in a loop',
          },
        ],
      }),
    );
    const label = page.getByLabelText('Choice 2 (English)');
    expect(label.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(label.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      price,
    );
    // A language not shown goes to the nearest place shown (the choices); a branch's to where it
    // is led.
    expect(page.getByText('German: is not checked here')).toBeTruthy();
    const routes = within(
      page.getByRole('group', { name: 'In flow default, after this question' }),
    );
    expect(routes.getByText(/a visitor could go round in a loop/)).toBeTruthy();
    act(() => $review.set({ kind: 'idle' }));
  });

  it('gives an information screen a picture of the library, described in each language', async () => {
    const user = userEvent.setup();
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    $contentCatalogue.set({
      kind: 'ready',
      catalogue: { ...EMPTY_CATALOGUE, languages: ['en', 'de'] },
    });
    const record = {
      id: 'a'.repeat(64),
      type: 'jpeg' as const,
      width: 1200,
      height: 800,
      bytes: 90_000,
      uploadedBy: 'anna@example.com',
      uploadedAt: '2026-12-01T10:00:00.000Z',
      thumbnail: '/pictures/thumb.jpg',
    };
    // The library as the worker answers it when the question's page opens.
    vi.stubGlobal('fetch', async (url: string) =>
      url === CONSOLE_PICTURES_PATH
        ? Response.json({ ok: true, pictures: [record] })
        : Response.json({ ok: false, error: 'unavailable' }, { status: 503 }),
    );
    putQuestions({ q_note: NOTE });
    act(() => openPage('quiz', 'q_note'));
    render(<QuizPage />);
    const page = within(await screen.findByRole('region', { name: 'Question q_note' }));
    const picked = page.getByLabelText('Picture (optional)');
    await user.selectOptions(picked, record.id);
    fireEvent.change(page.getByLabelText('What the picture shows (English)'), {
      target: { value: 'A phone showing a map' },
    });
    await user.selectOptions(page.getByLabelText('Language'), 'de');
    const german = page.getByLabelText('What the picture shows (German)') as HTMLInputElement;
    expect(german.placeholder).toBe('A phone showing a map');
    fireEvent.change(german, { target: { value: 'Ein Telefon mit Karte' } });
    const own = () => $draft.get()?.document.content.questions?.q_note;
    expect(own()).toMatchObject({
      picture: {
        id: record.id,
        width: 1200,
        height: 800,
        alt: { en: 'A phone showing a map', de: 'Ein Telefon mit Karte' },
      },
    });
    // The publish's refusal of a language not written says its language beside the picture.
    act(() =>
      $review.set({
        kind: 'invalid',
        errors: [
          {
            path: 'content.questions.q_note.picture.alt.fr',
            message: 'must be given: a screen reader says what the picture shows in every language',
          },
        ],
      }),
    );
    expect(page.getByText(/^French: must be given/)).toBeTruthy();
    act(() => $review.set({ kind: 'idle' }));
    // None: the picture and its descriptions go.
    await user.selectOptions(picked, '');
    expect(own()).not.toHaveProperty('picture');
  });

  it('leads a number’s answers by ranges, the first met first, to screens the check takes', async () => {
    const user = userEvent.setup();
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    const age = { kind: 'number', key: 'age', title: { en: 'How old?' }, min: 1, max: 18 };
    const listed = draft.document.flows.flows.default ?? [];
    $draft.set({
      ...draft,
      document: {
        ...draft.document,
        content: { ...draft.document.content, questions: { q_age: age } },
        flows: {
          ...draft.document.flows,
          flows: { ...draft.document.flows.flows, default: ['q_age', ...listed] },
        },
      } as typeof draft.document,
    });
    act(() => openPage('quiz', 'q_age'));
    render(<QuizPage />);
    const page = within(await screen.findByRole('region', { name: 'Question q_age' }));
    const routes = within(
      page.getByRole('group', { name: 'In flow default, after this question' }),
    );
    await user.click(routes.getByRole('button', { name: 'Add a range' }));
    await user.click(routes.getByRole('button', { name: 'Add a range' }));
    fireEvent.change(routes.getByLabelText('Range 1 to'), { target: { value: '5' } });
    await user.selectOptions(routes.getByLabelText('Range 1 goes to'), 'signup');
    fireEvent.change(routes.getByLabelText('Range 2 from'), { target: { value: '6' } });
    expect(routes.getByText('The first range an answer is in decides.')).toBeTruthy();
    const own = () => $draft.get()?.document.flows.branches?.default?.q_age;
    expect(own()?.branches).toEqual([
      { when: { test: 'between', key: 'age', min: 1, max: 5 }, next: 'signup' },
      { when: { test: 'between', key: 'age', min: 6, max: 18 }, next: listed[0] },
    ]);
    const checked = checkFullDocument($draft.get()?.document);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    await user.click(routes.getByRole('button', { name: 'Remove range 2' }));
    await user.click(routes.getByRole('button', { name: 'Remove range 1' }));
    expect($draft.get()?.document.flows).not.toHaveProperty('branches');
  });

  it('builds a result screen’s lines, each shown always or by an answer', async () => {
    const user = userEvent.setup();
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    const plan = {
      kind: 'result',
      title: { en: 'Your plan' },
      lines: [
        { text: { en: 'A line' } },
        {
          text: { en: 'Written by hand' },
          when: { test: 'one_of', key: 'who', values: ['child', 'partner'] },
        },
      ],
    };
    const age = { kind: 'number', key: 'age', title: { en: 'How old?' }, min: 1, max: 18 };
    $draft.set({
      ...draft,
      document: {
        ...draft.document,
        content: {
          ...draft.document.content,
          questions: { q_who: WHO, q_age: age, q_plan: plan },
        },
      } as typeof draft.document,
    });
    act(() => openPage('quiz', 'q_plan'));
    render(<QuizPage />);
    const page = within(await screen.findByRole('region', { name: 'Question q_plan' }));
    fireEvent.change(page.getByLabelText('Line 1 (English)'), {
      target: { value: 'School-run alerts for {{answer.who}}' },
    });
    await user.selectOptions(page.getByLabelText('Line 1 shows'), 'when who is your child');
    // A condition the console does not write is said, and kept.
    const kept = within(page.getByLabelText('Line 2 shows'));
    expect(kept.getByRole('option', { selected: true }).textContent).toBe(
      'when who is one of child, partner (written in the config)',
    );
    await user.click(page.getByRole('button', { name: 'Add a line' }));
    fireEvent.change(page.getByLabelText('Line 3 (English)'), {
      target: { value: 'Alerts from school' },
    });
    // A number's range, from and to, the question's own range to start with.
    await user.selectOptions(page.getByLabelText('Line 3 shows'), 'when age is in a range');
    fireEvent.change(page.getByLabelText('Line 3: age from'), { target: { value: '6' } });
    expect($draft.get()?.document.content.questions?.q_plan).toEqual({
      kind: 'result',
      title: { en: 'Your plan' },
      lines: [
        {
          text: { en: 'School-run alerts for {{answer.who}}' },
          when: { test: 'equals', key: 'who', value: 'child' },
        },
        plan.lines[1],
        {
          text: { en: 'Alerts from school' },
          when: { test: 'between', key: 'age', min: 6, max: 18 },
        },
      ],
    });
    await user.selectOptions(page.getByLabelText('Line 1 shows'), '');
    await user.click(page.getByRole('button', { name: 'Remove line 3' }));
    await user.click(page.getByRole('button', { name: 'Remove line 2' }));
    expect($draft.get()?.document.content.questions?.q_plan).toMatchObject({
      lines: [{ text: { en: 'School-run alerts for {{answer.who}}' } }],
    });
    const lines = $draft.get()?.document.content.questions?.q_plan;
    expect(lines?.kind === 'result' ? lines.lines[0] : null).not.toHaveProperty('when');
  });
});
