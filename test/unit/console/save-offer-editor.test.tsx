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
});
