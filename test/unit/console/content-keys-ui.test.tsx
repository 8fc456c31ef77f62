// @vitest-environment happy-dom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { InPlaceEditor } from '../../../console/content/InPlaceEditor';
import { $contentAnnouncement } from '../../../console/content/stores/content-editor';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { contentCatalogue } from '../../../worker/console/content-catalogue';
import { eachOnAFreshEditor, lastDrawn, openEditor } from './content-worker';
import { consoleState } from './fixtures';

// The catalogue holds every language: in Node they come from the source files.
holdEveryLanguage();

/**
 * The content editor by keyboard and in every shipped language, against the worker's own
 * catalogue and language notes (./content-worker.tsx): what test/browser/console-content.test.ts
 * walked in Chromium before, where the preview frame and what is edited over it stay. A changed
 * English headline lists what each other language's visitors see, each entry opening its field
 * in focus, written in its direction; a section moves by Alt+Arrow; the in-place field of a
 * right-to-left language is written right to left, and keeps a text over its limit unsaved.
 */

const TITLE = 'screens.one_pager.title';
const LIVE_TITLE = 'Find out where your loved ones are';
const HEADLINES: Record<string, string> = {
  en: 'See your family on one map',
  de: 'Sieh deine Familie auf einer Karte',
  es: 'Ve a tu familia en un mapa',
  fr: 'Voyez votre famille sur une carte',
  pt: 'Veja sua família em um mapa',
  ru: 'Вся семья на одной карте',
  ar: 'شاهد عائلتك على خريطة واحدة',
};

const OTHER_LANGUAGES = 'What visitors in other languages see';

/** The landing's own copy in the draft. */
const draftCopy = () => $draft.get()?.document.content.screens.one_pager?.copy;

eachOnAFreshEditor();

describe('a new English headline', () => {
  it('says what each other language sees, and opens each one’s field in focus, in its direction', async () => {
    const user = userEvent.setup();
    const content = await openEditor();
    const english = content.getByLabelText(`Headline ${TITLE}`) as HTMLTextAreaElement;
    expect(english.value).toBe(LIVE_TITLE);
    fireEvent.change(english, { target: { value: HEADLINES.en } });
    expect(
      content.getByText(`${HEADLINES.en?.length} / 160 characters`, { exact: false }),
    ).toBeTruthy();
    const said = await content.findByRole('list', { name: OTHER_LANGUAGES });
    expect(said.querySelector('li')?.textContent).toContain(
      'see their current text, outdated until',
    );

    for (const language of ['de', 'es', 'fr', 'pt', 'ru', 'ar']) {
      const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
      // By keyboard: Enter on the entry's button.
      content.getByRole('button', { name: `Write Headline ${TITLE} in ${name}` }).focus();
      await user.keyboard('{Enter}');
      const field = document.getElementById(`content-copy-${language}-screens-one_pager-title`);
      await waitFor(() => expect(document.activeElement, language).toBe(field));
      expect(field?.getAttribute('lang')).toBe(language);
      expect(field?.getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      fireEvent.change(field as HTMLElement, { target: { value: HEADLINES[language] } });
    }
    // Every language given: nothing left to say.
    await waitFor(() => expect(content.queryByRole('list', { name: OTHER_LANGUAGES })).toBeNull());
    expect(
      Object.fromEntries(
        Object.entries(draftCopy() ?? {}).map(([language, texts]) => [language, texts?.[TITLE]]),
      ),
    ).toEqual(HEADLINES);
    // The preview follows the language picked: Arabic, drawn from the draft.
    await user.selectOptions(content.getByLabelText('Language', { exact: true }), 'ar');
    const asked = await lastDrawn({ screen: 'one_pager', language: 'ar' });
    expect(asked.content.screens.one_pager?.copy?.ar?.[TITLE]).toBe(HEADLINES.ar);
  });
});

describe('the landing’s sections by keyboard', () => {
  it('move by Alt+Up, saying where, with focus kept on the row, and a required one says why it stays', async () => {
    const user = userEvent.setup();
    const content = await openEditor();
    const rows = () =>
      [...document.querySelectorAll<HTMLElement>('.content-section')].map(
        (row) => row.dataset.section,
      );
    expect(rows()).toEqual([
      'hero',
      'phone_form',
      'illustration',
      'claims',
      'features',
      'how_it_works',
      'reviews',
      'guarantee',
      'footer',
    ]);
    content.getByRole('button', { name: /^Reviews, position 7 of 9/ }).focus();
    for (const _ of [1, 2, 3, 4, 5]) await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    await content.findByText('Reviews moved to position 2 of 9.');
    expect(rows().slice(0, 3)).toEqual(['hero', 'reviews', 'phone_form']);
    await waitFor(() => expect(document.activeElement?.id).toBe('content-section-reviews-edit'));
    // The preview draws the draft's order.
    const sections = $draft.get()?.document.content.screens.one_pager?.sections;
    expect(sections?.slice(0, 3).map((each) => each.id)).toEqual(['hero', 'reviews', 'phone_form']);
    await lastDrawn({ screen: 'one_pager', content: { screens: { one_pager: { sections } } } });
    // A required section says why it stays, on its disabled controls.
    const hideForm = content.getByRole('button', { name: 'Show: Phone form' });
    expect(hideForm.getAttribute('aria-disabled')).toBe('true');
    const reason = hideForm.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(reason)?.textContent).toContain('Required.');
  });
});

describe('a text edited in place', () => {
  it('is written right to left in Arabic, and kept unsaved over its limit until Escape', async () => {
    const catalogue = await contentCatalogue({}, { assets: undefined });
    const landing = catalogue.screens.find((each) => each.id === 'one_pager');
    const live = catalogue.texts.ar?.[TITLE] ?? '';
    startDraft(consoleState());
    const onClose = vi.fn();
    // The frame's sides as a phone-width frame has them (happy-dom lays nothing out).
    const frame = { offsetWidth: 390, clientWidth: 390, clientHeight: 700 } as HTMLIFrameElement;
    frame.getBoundingClientRect = () => ({ width: 390 }) as DOMRect;
    render(
      <InPlaceEditor
        frame={frame}
        loads={1}
        catalogue={catalogue}
        screen={landing!}
        language="ar"
        drawn={{ screens: {} }}
        issues={[]}
        spot={{
          key: TITLE,
          section: 'hero',
          top: 40,
          left: 16,
          width: 340,
          height: 60,
          said: live,
        }}
        text={live}
        onClose={onClose}
      />,
    );
    const field = screen.getByLabelText(`Heading in Arabic: ${TITLE}`);
    expect(field.getAttribute('dir')).toBe('rtl');
    expect(field.getAttribute('lang')).toBe('ar');
    expect(document.activeElement).toBe(field);

    const user = userEvent.setup();
    fireEvent.change(field, { target: { value: 'x'.repeat(170) } });
    expect(screen.getByText('10 characters over the limit')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.keyboard('{Enter}');
    expect(onClose).not.toHaveBeenCalled();
    expect(draftCopy()?.ar?.[TITLE]).toBeUndefined();
    expect($contentAnnouncement.get()).toBe('');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
    expect(draftCopy()?.ar?.[TITLE]).toBeUndefined();
  });
});
