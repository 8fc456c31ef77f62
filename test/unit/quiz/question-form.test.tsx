// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithIslands } from '../../../screens/layout/Island';
import { QuestionForm, type QuestionFormProps } from '../../../screens/quiz/QuestionForm';
import { QUIZ_CSS } from '../../../screens/quiz/styles';
import { question } from '../../../shared/quiz/question';
import { shippedTranslator } from '../../../worker/i18n';

/**
 * A question screen's form (screens/quiz/QuestionForm.tsx) as a visitor meets it: the question
 * as the legend of its choices and the page's title, each single choice a button that posts its
 * value (never a radio that would go on at an arrow key), a kept answer shown as chosen, a
 * refused answer's problem said and named by the controls, and a number's limits on its field.
 * Server HTML: the form posts to the screen's own address without script.
 */

const WHO = question.parse({
  kind: 'single',
  key: 'who',
  title: { en: 'Who do you want to keep safe?', de: 'Wen möchtest du schützen?' },
  subtitle: { en: 'Pick one.' },
  choices: [
    { value: 'child', label: { en: 'My child', de: 'Mein Kind' } },
    { value: 'partner', label: { en: 'My partner' } },
  ],
});

function draw(props: Partial<QuestionFormProps> & Pick<QuestionFormProps, 'question'>) {
  return render(
    <QuestionForm language="en" action="/q_who" t={shippedTranslator('en')} {...props} />,
  );
}

afterEach(cleanup);

describe('a question screen’s form', () => {
  it('asks a single choice as the legend of its buttons, each posting its value', () => {
    const { container } = draw({
      question: WHO,
      answer: 'partner',
    });
    const form = container.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.getAttribute('action')).toBe('/q_who');
    const group = screen.getByRole('group', { name: 'Who do you want to keep safe?' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Who do you want to keep safe?',
    );
    const buttons = within(group).getAllByRole('button');
    expect(
      buttons.map((button) => [
        button.textContent,
        button.getAttribute('name'),
        button.getAttribute('value'),
        button.getAttribute('type'),
        button.getAttribute('aria-pressed'),
      ]),
    ).toEqual([
      ['My child', 'answer', 'child', 'submit', 'false'],
      ['My partner', 'answer', 'partner', 'submit', 'true'],
    ]);
    expect(within(group).queryAllByRole('radio')).toEqual([]);
  });

  it('reads each text in the page’s language, else in English', () => {
    draw({ question: WHO, language: 'de' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Wen möchtest du schützen?');
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Mein Kind',
      'My partner',
    ]);
  });

  it('says a refused answer’s problem above the controls, which name it', () => {
    const age = question.parse({
      kind: 'number',
      key: 'age',
      title: { en: 'How old is your child?' },
      min: 3,
      max: 17,
      unit: { en: 'years' },
    });
    draw({ question: age, answer: 12, problem: 'out_of_range' });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Enter a number from 3 to 17.');
    const field = screen.getByRole('spinbutton', { name: 'How old is your child?' });
    expect([
      field.getAttribute('min'),
      field.getAttribute('max'),
      field.getAttribute('aria-invalid'),
      field.getAttribute('aria-describedby'),
      (field as HTMLInputElement).value,
    ]).toEqual(['3', '17', 'true', alert.id, '12']);
    expect(screen.getByText('years')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('type')).toBe('submit');
  });

  it('keeps a multiple choice’s answers checked, and a building step skippable', () => {
    const worries = question.parse({ ...WHO, kind: 'multiple', key: 'worries' });
    draw({ question: worries, answer: ['partner'] });
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => [box.value, box.checked])).toEqual([
      ['child', false],
      ['partner', true],
    ]);
  });

  it('draws a building step as its island, skippable, its bar named by the step', async () => {
    const building = question.parse({
      kind: 'building',
      title: { en: 'Building your plan…' },
      seconds: 3,
    });
    const { html, islands } = await renderWithIslands(
      <QuestionForm
        question={building}
        language="en"
        action="/q_build"
        t={shippedTranslator('en')}
      />,
    );
    expect([...islands]).toEqual(['BuildingStep']);
    document.body.innerHTML = html;
    expect(screen.getByRole('button', { name: 'Skip' }).getAttribute('type')).toBe('submit');
    expect(screen.getByRole('progressbar', { name: 'Building your plan…' })).toBeTruthy();
    // Its script moves on when the seconds are up; until then, and without it, Skip posts.
    expect(document.querySelector('form')?.getAttribute('action')).toBe('/q_build');
    for (const name of ['quiz__building', 'quiz__building-bar', 'quiz__building-fill']) {
      expect(QUIZ_CSS).toContain(`.${name}{`);
    }
    document.body.innerHTML = '';
  });

  it('has a rule for every class it draws, in every kind', () => {
    const kinds = [
      WHO,
      question.parse({ ...WHO, kind: 'multiple', key: 'worries' }),
      question.parse({
        kind: 'number',
        key: 'age',
        title: { en: 'Age' },
        min: 1,
        max: 9,
        unit: { en: 'years' },
      }),
      question.parse({ kind: 'info', title: { en: 'Good to know' } }),
      question.parse({
        kind: 'result',
        title: { en: 'Your plan' },
        lines: [{ text: { en: 'Your family on one map' } }],
      }),
    ];
    const drawn = new Set<string>();
    for (const kind of kinds) {
      const lines = kind.kind === 'result' ? ['Your family on one map'] : undefined;
      const { container } = draw({ question: kind, problem: 'empty', lines });
      for (const element of container.querySelectorAll('[class]')) {
        for (const name of element.classList) if (name.startsWith('quiz')) drawn.add(name);
      }
      cleanup();
    }
    expect(drawn.size).toBeGreaterThan(10);
    expect([...drawn].filter((name) => !QUIZ_CSS.includes(`.${name}`))).toEqual([]);
  });
});
