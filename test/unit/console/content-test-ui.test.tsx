// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { $draft } from '../../../console/kit/stores/draft';
import { $page, openPage } from '../../../console/kit/stores/page';
import { CurrentPage } from '../../../console/page/Console';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';
import { renderAreas } from './areas';
import { eachOnTheBuiltWorkersConsole } from './content-worker';

// The catalogue holds every language: in Node they come from the source files.
holdEveryLanguage();

/**
 * A content test made in the console, in happy-dom against the worker's catalogue and language
 * notes (./content-worker.tsx): a variant of the classic landing made on the Content page (its
 * name checked, a new headline, the reviews above the form), what every visitor sees untouched,
 * then a landing content test showing it as variant b created and started on the Experiments
 * page, which opens Edit and publish. What the worker makes of that draft once published is the
 * worker tier's: the review draws the arm's variant (test/worker/console/review-screens.test.ts),
 * each arm's visitors get their landing (test/worker/content/content-test.test.ts), and the winner
 * shipped to its route (test/unit/console/experiment-edits.test.ts) is what that route's visitors
 * get (test/worker/experiments/visitor-gets-property.test.ts).
 */

const TITLE = 'screens.one_pager.title';
const LIVE_TITLE = 'Find out where your loved ones are';
const VARIANT_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';

const landing = () => $draft.get()?.document.content.screens.one_pager;

eachOnTheBuiltWorkersConsole();

describe('a content test from the console', () => {
  it('makes a variant of the landing, and tests it as b on route default', async () => {
    const user = userEvent.setup();
    openPage('content');
    renderAreas((state) => <CurrentPage state={state} />);
    const content = within(await screen.findByRole('region', { name: 'Content' }));
    await content.findByLabelText('Screen', { exact: true });

    // A new variant, by keyboard: its name, Enter; refused as typed, then made and edited.
    const named = content.getByLabelText('New variant');
    fireEvent.change(named, { target: { value: 'Testimonials' } });
    named.focus();
    await user.keyboard('{Enter}');
    expect(content.getByText(/^Use lower-case letters/)).toBeTruthy();
    expect(named.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(named, { target: { value: 'testimonials_first' } });
    await user.click(content.getByRole('button', { name: 'Create' }));
    const version = content.getByLabelText('Version');
    expect((version as HTMLInputElement).value).toBe('testimonials_first');

    // Its headline in English: German visitors would not be in the test, and it is no refusal.
    fireEvent.change(content.getByLabelText(`Headline ${TITLE}`), {
      target: { value: VARIANT_TITLE },
    });
    const said = await content.findByRole('list', { name: 'What visitors in other languages see' });
    expect(said.querySelector('li')?.textContent).toContain(
      'are not shown a test of this variant and are not counted',
    );
    for (const _ of [1, 2, 3, 4, 5]) {
      await user.click(content.getByRole('button', { name: 'Move up: Reviews' }));
    }
    const variant = landing()?.variants?.testimonials_first;
    expect(variant?.copy?.en?.[TITLE]).toBe(VARIANT_TITLE);
    expect(variant?.sections?.slice(0, 3).map((each) => each.id)).toEqual([
      'hero',
      'reviews',
      'phone_form',
    ]);

    // What every visitor sees is untouched.
    await user.selectOptions(version, '');
    expect((content.getByLabelText(`Headline ${TITLE}`) as HTMLTextAreaElement).value).toBe(
      LIVE_TITLE,
    );
    expect(landing()?.copy).toBeUndefined();
    expect(landing()?.sections).toBeUndefined();

    // The test, on the Experiments page: the landing content preset, variant b showing it.
    act(() => openPage('experiments'));
    const area = within(await screen.findByRole('region', { name: 'Experiments' }));
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    await user.selectOptions(
      form.getByLabelText('What to test'),
      form.getByRole('option', { name: 'Landing content (headline, picture, sections)' }),
    );
    fireEvent.change(form.getByLabelText('Experiment name'), {
      target: { value: 'Testimonials first' },
    });
    await user.click(form.getByRole('checkbox', { name: 'default' }));
    const shows = form.getByLabelText('The content variant b shows');
    expect([...shows.querySelectorAll('option')].map((option) => option.value)).toContain(
      'one_pager:testimonials_first',
    );
    await user.selectOptions(shows, 'one_pager:testimonials_first');
    await user.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const card = within(await area.findByRole('article', { name: /Testimonials first/ }));
    expect(card.getByText(/the content testimonials_first of one_pager/)).toBeTruthy();
    const experiment = () => $draft.get()?.document.experiments.experiments['testimonials-first'];
    expect(experiment()).toMatchObject({
      layer: 'landing',
      status: 'draft',
      variants: { b: { change: { content: { one_pager: 'testimonials_first' } } } },
    });

    // Started: running in the draft, and Edit and publish opened for its review.
    await user.click(card.getByRole('button', { name: 'Start Testimonials first…' }));
    const start = within(screen.getByRole('dialog', { name: 'Start Testimonials first?' }));
    await user.click(start.getByRole('button', { name: 'Start Testimonials first' }));
    await waitFor(() => expect($page.get().area).toBe('publish'));
    expect(experiment()?.status).toBe('running');
  });
});
