// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveOfferEditor } from '../../../console/content/SaveOfferEditor';
import { $draft, editContent, startDraft } from '../../../console/kit/stores/draft';
import { $review } from '../../../console/kit/stores/review';
import {
  CONSOLE_CONTENT_API,
  type SaveOfferPreviewRequest,
} from '../../../shared/console-api/content';
import { consoleState } from './fixtures';

/** The save offer as the content area edits it (console/content/SaveOfferEditor.tsx). */

const offer = () => $draft.get()?.document.content.saveOffer;
let asked: SaveOfferPreviewRequest[];

beforeEach(() => {
  startDraft(consoleState());
  $review.set({ kind: 'idle' });
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      expect(url).toBe(CONSOLE_CONTENT_API.saveOfferPreview);
      const request = JSON.parse(String(init?.body)) as SaveOfferPreviewRequest;
      asked.push(request);
      const title = request.content.saveOffer?.title[request.language] ?? 'none';
      return new Response(
        JSON.stringify({ ok: true, html: `<h2>${title}</h2>`, offered: title !== 'none' }),
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the save offer editor', () => {
  it('writes each language’s title and text into the draft, and previews the confirm with them', async () => {
    render(<SaveOfferEditor languages={['en', 'de']} />);
    expect(screen.getByText(/No subscriber sees an offer/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Title in English (at most 500 characters)'), {
      target: { value: 'Before you go' },
    });
    fireEvent.change(screen.getByLabelText('Text in English (at most 500 characters)'), {
      target: { value: 'We set the app up with you, free.' },
    });
    await userEvent.setup().selectOptions(screen.getByLabelText('Write the offer in'), 'de');
    fireEvent.change(screen.getByLabelText('Title in German (at most 500 characters)'), {
      target: { value: 'Bevor Sie gehen' },
    });
    expect(offer()).toEqual({
      title: { en: 'Before you go', de: 'Bevor Sie gehen' },
      text: { en: 'We set the app up with you, free.' },
    });
    // German has no text yet: its subscribers see no offer.
    expect(screen.getByText('Shown to subscribers reading English.')).toBeTruthy();
    const frame = await waitFor(() => {
      const drawn = screen.getByTitle(
        'Preview: the cancel confirm in German, geozilla, phone width',
      );
      expect(drawn.getAttribute('srcdoc')).toContain('Bevor Sie gehen');
      return drawn;
    });
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    // Only the offer (and the brands, none here) goes to the worker, in the language shown.
    expect(asked.at(-1)).toEqual({
      language: 'de',
      theme: 'geozilla',
      content: { screens: {}, saveOffer: offer() },
    });
  });

  it('takes the offer out of the draft once every text is emptied', () => {
    render(<SaveOfferEditor languages={['en']} />);
    const title = screen.getByLabelText('Title in English (at most 500 characters)');
    fireEvent.change(title, { target: { value: 'Before you go' } });
    expect(offer()).toEqual({ title: { en: 'Before you go' }, text: {} });
    fireEvent.change(title, { target: { value: '  ' } });
    expect($draft.get()?.document.content).not.toHaveProperty('saveOffer');
  });

  it('keeps the offer’s variants, which a save offer test shows, when every text is emptied', () => {
    const variants = { half_price: { title: { en: 'Stay for half price' } } };
    editContent((content) => ({
      ...content,
      saveOffer: { title: { en: 'Before you go' }, text: {}, variants },
    }));
    render(<SaveOfferEditor languages={['en']} />);
    const title = screen.getByLabelText('Title in English (at most 500 characters)');
    fireEvent.change(title, { target: { value: 'Before you went' } });
    expect(offer()).toEqual({ title: { en: 'Before you went' }, text: {}, variants });
    fireEvent.change(title, { target: { value: '' } });
    expect(offer()).toEqual({ title: {}, text: {}, variants });
  });

  it('shows the check’s refusal beside its field', () => {
    render(<SaveOfferEditor languages={['en']} />);
    const text = screen.getByLabelText('Text in English (at most 500 characters)');
    fireEvent.change(text, { target: { value: 'x'.repeat(501) } });
    const message = 'must be at most 500 characters';
    act(() =>
      $review.set({ kind: 'invalid', errors: [{ path: 'content.saveOffer.text.en', message }] }),
    );
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(text.getAttribute('aria-describedby')!)?.textContent).toBe(
      message,
    );
    expect((text as HTMLTextAreaElement).value).toHaveLength(501);
  });

  it('shows the preview’s refusal beside its field as one types, before any review', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              ok: false,
              error: 'invalid_config',
              errors: [
                { path: 'content.saveOffer.title.en', message: 'must be at most 500 characters' },
              ],
            }),
            { status: 400 },
          ),
      ),
    );
    render(<SaveOfferEditor languages={['en']} />);
    const title = screen.getByLabelText('Title in English (at most 500 characters)');
    fireEvent.change(title, { target: { value: 'y'.repeat(501) } });
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(title.getAttribute('aria-describedby')!)?.textContent).toBe(
      'must be at most 500 characters',
    );
    expect(screen.getByText('The preview waits for the refusals above.')).toBeTruthy();
    expect(screen.queryByTitle(/Preview: the cancel confirm/)).toBeNull();
  });

  it('adds a named variant, writes its texts over the offer’s, previews it and removes it', async () => {
    editContent((content) => ({
      ...content,
      saveOffer: { title: { en: 'Before you go' }, text: { en: 'We help, free.' } },
    }));
    render(<SaveOfferEditor languages={['en']} />);
    const name = screen.getByLabelText('Name a new offer variant');
    fireEvent.change(name, { target: { value: 'Half Price' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add offer variant' }));
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Use lower-case letters, digits, - and _, starting with a letter (at most 40).',
    );
    expect(offer()?.variants).toBeUndefined();
    fireEvent.change(name, { target: { value: 'half_price' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add offer variant' }));
    expect(offer()?.variants).toEqual({ half_price: {} });
    expect((screen.getByLabelText('Offer to write') as HTMLInputElement).value).toBe('half_price');
    const title = screen.getByLabelText('Title in English (at most 500 characters)');
    // The variant writes nothing yet: it shows the offer's title, said as the placeholder.
    expect((title as HTMLInputElement).value).toBe('');
    expect(title.getAttribute('placeholder')).toBe('Before you go');
    fireEvent.change(title, { target: { value: 'Stay for half price' } });
    expect(offer()).toEqual({
      title: { en: 'Before you go' },
      text: { en: 'We help, free.' },
      variants: { half_price: { title: { en: 'Stay for half price' } } },
    });
    await waitFor(() => expect(asked.at(-1)?.variant).toBe('half_price'));
    expect(asked.at(-1)?.content.saveOffer).toEqual(offer());
    // The check's refusal of the variant's text shows beside its field, not the offer's.
    const message = 'must be at most 500 characters';
    const path = 'content.saveOffer.variants.half_price.title.en';
    act(() => $review.set({ kind: 'invalid', errors: [{ path, message }] }));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Remove offer variant half_price' }));
    expect(offer()).toEqual({ title: { en: 'Before you go' }, text: { en: 'We help, free.' } });
    expect((screen.getByLabelText('Offer to write') as HTMLInputElement).value).toBe('');
    const own = screen.getByLabelText('Title in English (at most 500 characters)');
    expect((own as HTMLInputElement).value).toBe('Before you go');
    expect(own.getAttribute('aria-invalid')).toBeNull();
  });

  it('gives a variant its own discount, 50% off one renewal, words only, or the offer’s action', async () => {
    editContent((content) => ({
      ...content,
      saveOffer: {
        title: { en: 'Before you go' },
        text: { en: 'We help, free.' },
        action: { kind: 'pause', months: 2 },
        variants: { half_price: { title: { en: 'Stay for half price' } } },
      },
    }));
    render(<SaveOfferEditor languages={['en']} />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Offer to write'), 'half_price');
    const action = screen.getByLabelText('What variant half_price does with one tap');
    // Nothing of its own yet: it does what the offer does, said in the choice.
    expect((action as HTMLInputElement).value).toBe('same');
    expect(
      screen.getByRole('option', { name: 'Same as the offer (a pause of 2 months)' }),
    ).toBeTruthy();
    await user.selectOptions(action, 'discount');
    const percent = screen.getByLabelText('Percent off each discounted renewal (5 to 100)');
    const renewals = screen.getByLabelText('Renewals discounted (1 to 12)');
    expect([
      percent.getAttribute('type'),
      percent.getAttribute('min'),
      percent.getAttribute('max'),
    ]).toEqual(['number', '5', '100']);
    expect([renewals.getAttribute('min'), renewals.getAttribute('max')]).toEqual(['1', '12']);
    await user.clear(percent);
    await user.type(percent, '50');
    await user.clear(renewals);
    await user.type(renewals, '1');
    expect(offer()).toEqual({
      title: { en: 'Before you go' },
      text: { en: 'We help, free.' },
      action: { kind: 'pause', months: 2 },
      variants: {
        half_price: {
          title: { en: 'Stay for half price' },
          action: { kind: 'discount', percentOff: 50, renewals: 1 },
        },
      },
    });
    // The check's refusal of the variant's figure shows beside it.
    const message = 'must be at most 100';
    const path = 'content.saveOffer.variants.half_price.action.percentOff';
    act(() => $review.set({ kind: 'invalid', errors: [{ path, message }] }));
    expect(percent.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(percent.getAttribute('aria-describedby')!)?.textContent).toBe(
      message,
    );
    // Words only overrides the offer's pause: null, kept; the offer's action again leaves the key out.
    await user.selectOptions(action, 'words');
    expect(offer()?.variants?.half_price).toEqual({
      title: { en: 'Stay for half price' },
      action: null,
    });
    expect(screen.queryByLabelText('Percent off each discounted renewal (5 to 100)')).toBeNull();
    await user.selectOptions(action, 'same');
    expect(offer()?.variants?.half_price).toEqual({ title: { en: 'Stay for half price' } });
    // Reasons belong to the offer, which every arm asks: a variant has none of its own.
    expect(screen.queryByRole('group', { name: /^Reasons for leaving/ })).toBeNull();
  });

  it('pauses the offer for the months typed, keeps an offer with an action and no words yet, and takes the action out for words only', async () => {
    render(<SaveOfferEditor languages={['en']} />);
    const user = userEvent.setup();
    const action = screen.getByLabelText('What the offer does with one tap');
    // The offer itself has no "same as" to fall back on.
    expect([...action.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'words',
      'discount',
      'pause',
      'switch',
    ]);
    await user.selectOptions(action, 'pause');
    const months = screen.getByLabelText('Months paused (1 to 3)');
    expect([
      months.getAttribute('type'),
      months.getAttribute('min'),
      months.getAttribute('max'),
    ]).toEqual(['number', '1', '3']);
    expect(offer()).toEqual({ title: {}, text: {}, action: { kind: 'pause', months: 1 } });
    await user.clear(months);
    // Emptied, the draft holds no number, for the check to refuse at the field.
    expect(offer()?.action).toEqual({ kind: 'pause', months: Number.NaN });
    await user.type(months, '3');
    expect(offer()).toEqual({ title: {}, text: {}, action: { kind: 'pause', months: 3 } });
    await user.selectOptions(action, 'words');
    expect($draft.get()?.document.content).not.toHaveProperty('saveOffer');
  });

  it('switches to one of the renewing plans only', async () => {
    render(<SaveOfferEditor languages={['en']} />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('What the offer does with one tap'), 'switch');
    const plan = screen.getByLabelText(/^Plan to switch to/);
    const families = [...plan.querySelectorAll('option')].map((o) => o.value);
    expect(families).toContain('upsell_monthly_599');
    expect(families).not.toContain('guide_899');
    await user.selectOptions(plan, 'quarterly');
    expect(offer()?.action).toEqual({ kind: 'switch', family: 'quarterly' });
  });

  it('adds reasons for leaving with their words per language, refuses a bad or ninth key, and removes them', async () => {
    editContent((content) => ({
      ...content,
      saveOffer: { title: { en: 'Before you go' }, text: { en: 'We help, free.' } },
    }));
    render(<SaveOfferEditor languages={['en', 'de']} />);
    const user = userEvent.setup();
    expect(screen.getByText('No reasons: the confirm asks none.')).toBeTruthy();
    const key = screen.getByLabelText('Key of a new reason (lower case, digits and _)');
    const problem = () => document.getElementById(key.getAttribute('aria-describedby') ?? '');
    await user.type(key, 'Too Expensive{Enter}');
    expect(problem()?.textContent).toBe(
      'Use lower-case letters, digits and _, starting with a letter (at most 40).',
    );
    expect(offer()).not.toHaveProperty('reasons');
    await user.clear(key);
    await user.type(key, 'too_expensive{Enter}');
    await user.type(key, 'not_using_it');
    await user.click(screen.getByRole('button', { name: 'Add reason' }));
    expect(offer()?.reasons).toEqual({ too_expensive: {}, not_using_it: {} });
    await user.type(
      screen.getByLabelText('Reason too_expensive in English (at most 500 characters)'),
      'Too expensive',
    );
    await user.selectOptions(screen.getByLabelText('Write the offer in'), 'de');
    await user.type(
      screen.getByLabelText('Reason too_expensive in German (at most 500 characters)'),
      'Zu teuer',
    );
    await user.type(key, 'too_expensive{Enter}');
    expect(problem()?.textContent).toBe('"too_expensive" is already a reason.');
    await user.click(screen.getByRole('button', { name: 'Remove reason not_using_it' }));
    // The button went with its row: the keyboard goes on from the field that adds one.
    expect(document.activeElement).toBe(key);
    expect(offer()).toEqual({
      title: { en: 'Before you go' },
      text: { en: 'We help, free.' },
      reasons: { too_expensive: { en: 'Too expensive', de: 'Zu teuer' } },
    });
    // At most eight: a ninth is refused beside the field.
    await user.clear(key);
    for (const n of [2, 3, 4, 5, 6, 7, 8]) await user.type(key, `reason_${n}{Enter}`);
    expect(Object.keys(offer()?.reasons ?? {})).toHaveLength(8);
    await user.type(key, 'reason_9{Enter}');
    expect(problem()?.textContent).toBe('At most 8 reasons: remove one to add another.');
    expect(Object.keys(offer()?.reasons ?? {})).toHaveLength(8);
    await user.click(screen.getByRole('button', { name: 'Remove reason too_expensive' }));
    for (const n of [2, 3, 4, 5, 6, 7, 8]) {
      await user.click(screen.getByRole('button', { name: `Remove reason reason_${n}` }));
    }
    expect(offer()).toEqual({ title: { en: 'Before you go' }, text: { en: 'We help, free.' } });
  });

  it('shows the check’s refusal of a reason’s words beside its field', () => {
    editContent((content) => ({
      ...content,
      saveOffer: { title: {}, text: {}, reasons: { too_expensive: { en: 'x'.repeat(501) } } },
    }));
    render(<SaveOfferEditor languages={['en']} />);
    const message = 'must be at most 500 characters';
    const path = 'content.saveOffer.reasons.too_expensive.en';
    act(() => $review.set({ kind: 'invalid', errors: [{ path, message }] }));
    const field = screen.getByLabelText('Reason too_expensive in English (at most 500 characters)');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      message,
    );
  });
});
