// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrandEditor } from '../../../console/content/BrandEditor';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import { $review } from '../../../console/kit/stores/review';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { consoleState } from './fixtures';

/** Each theme's brand as the content area edits it (console/content/BrandEditor.tsx). */

const brands = () => $draft.get()?.document.content.brands;

beforeEach(() => {
  startDraft(consoleState());
  $review.set({ kind: 'idle' });
});

afterEach(cleanup);

describe('the brand editor', () => {
  it('copies a theme’s brand in code whole into the draft at the first edit, and gives it back', async () => {
    render(<BrandEditor />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Theme'), 'family-locator');
    expect(screen.getByRole('status').textContent).toBe('family-locator wears the brand in code.');
    const email = screen.getByLabelText('Support email') as HTMLInputElement;
    expect(email.value).toBe('support@familylocator.app');
    fireEvent.change(email, { target: { value: 'help@familylocator.app' } });
    // Whole: a page of the theme never mixes the draft's address with code's links.
    expect(brands()).toEqual({
      'family-locator': {
        ...DEFAULT_BRANDS['family-locator'],
        supportEmail: 'help@familylocator.app',
      },
    });
    fireEvent.change(screen.getByLabelText('Logo width in pixels'), { target: { value: '150' } });
    expect(brands()?.['family-locator']?.logos.header.width).toBe(150);
    expect(screen.getByRole('status').textContent).toBe('family-locator wears the draft’s brand.');
    // Another theme is untouched.
    await user.selectOptions(screen.getByLabelText('Theme'), 'findo');
    expect((screen.getByLabelText('Support email') as HTMLInputElement).value).toBe(
      'support@findo.app',
    );
    await user.selectOptions(screen.getByLabelText('Theme'), 'family-locator');
    await user.click(
      screen.getByRole('button', { name: 'Wear the brand in code on family-locator' }),
    );
    expect($draft.get()?.document.content).not.toHaveProperty('brands');
  });

  it('shows the check’s refusal beside its field', () => {
    render(<BrandEditor />);
    fireEvent.change(screen.getByLabelText('Terms of use (https://…)'), {
      target: { value: 'http://geozilla.com/terms' },
    });
    const message = 'must be an https:// address';
    $review.set({
      kind: 'invalid',
      errors: [{ path: 'content.brands.geozilla.links.terms', message }],
    });
    cleanup();
    render(<BrandEditor />);
    const terms = screen.getByLabelText('Terms of use (https://…)');
    expect((terms as HTMLInputElement).value).toBe('http://geozilla.com/terms');
    expect(terms.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(terms.getAttribute('aria-describedby')!)?.textContent).toBe(
      message,
    );
  });
});
