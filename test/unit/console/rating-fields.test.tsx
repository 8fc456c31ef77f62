// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatingFields } from '../../../console/content/RatingFields';
import {
  $contentCatalogue,
  $contentSelection,
} from '../../../console/content/stores/content-editor';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import type { ContentCatalogue } from '../../../shared/console-api/content';
import { consoleState } from './fixtures';

/** The reviews' rating as the content editor edits it (console/content/RatingFields.tsx). */

const CATALOGUE = {
  languages: ['en'],
  rtl: [],
  screens: [
    {
      id: 'one_pager',
      slot: 'landing',
      composition: ['hero', 'phone_form', 'reviews', 'footer'],
      sections: {},
    },
  ],
} as unknown as ContentCatalogue;

const rating = () => $draft.get()?.document.content.screens.one_pager?.rating;

beforeEach(() => {
  startDraft(consoleState());
  $contentCatalogue.set({ kind: 'ready', catalogue: CATALOGUE });
  $contentSelection.set({
    screen: 'one_pager',
    language: 'en',
    theme: 'geozilla',
    section: 'reviews',
    // A variant open in the editor: the rating is still the screen's own.
    variant: 'spring',
    width: 'phone',
    route: null,
    country: '',
  });
});

afterEach(cleanup);

describe('the rating above the reviews', () => {
  it('is typed into the screen’s own content, numbers as numbers, and emptied away', async () => {
    render(<RatingFields screen="one_pager" rating={undefined} issues={[]} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Rating, stars out of 5 (such as 4.6)'), '4.');
    // Half-typed, the field keeps the point the number lost.
    expect(
      (screen.getByLabelText('Rating, stars out of 5 (such as 4.6)') as HTMLInputElement).value,
    ).toBe('4.');
    await user.type(screen.getByLabelText('Rating, stars out of 5 (such as 4.6)'), '6');
    await user.type(screen.getByLabelText('Number of reviews (such as 12400)'), '12400');
    await user.type(screen.getByLabelText('Where they come from (such as App Store)'), 'App Store');
    expect(rating()).toEqual({ value: 4.6, count: 12400, source: 'App Store' });
    expect($draft.get()?.document.content.screens.one_pager?.variants).toBeUndefined();

    for (const label of [
      'Rating, stars out of 5 (such as 4.6)',
      'Number of reviews (such as 12400)',
      'Where they come from (such as App Store)',
    ]) {
      await user.clear(screen.getByLabelText(label));
    }
    expect(rating()).toBeUndefined();
    expect($draft.get()?.document.content.screens).not.toHaveProperty('one_pager');
  });

  it('passes a count with separators on for the check, which names the mistake at its field', async () => {
    const { rerender } = render(<RatingFields screen="one_pager" rating={undefined} issues={[]} />);
    await userEvent
      .setup()
      .type(screen.getByLabelText('Number of reviews (such as 12400)'), '12,400');
    expect(rating()).toEqual({ count: '12,400' });
    const message = 'must be a whole number such as 12400, without separators';
    rerender(
      <RatingFields
        screen="one_pager"
        rating={undefined}
        issues={[{ path: 'content.screens.one_pager.rating.count', message }]}
      />,
    );
    const count = screen.getByLabelText('Number of reviews (such as 12400)');
    expect(count.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('group', { name: 'Rating above the reviews' }).textContent).toContain(
      message,
    );
    expect(document.getElementById(count.getAttribute('aria-describedby')!)?.textContent).toBe(
      message,
    );
  });
});
