// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentIssues } from '../../../console/content/ContentIssues';
import { CopyFields } from '../../../console/content/CopyFields';
import { notesOfView } from '../../../console/content/language-notes';
import { $contentSelection } from '../../../console/content/stores/content-editor';
import { CopyEditor } from '../../../console/copy/CopyEditor';
import { CopyLanguages, CopyTodo } from '../../../console/copy/CopyTodo';
import { draftDocument } from '../../../console/copy/copy-text';
import { $copy, $copyEdits, $copyReview, $copySelected } from '../../../console/copy/stores/copy';
import { ReviewLanguages } from '../../../console/kit/LanguageNotes';
import type { ContentDocument } from '../../../shared/config/content';
import type { ComposedScreenChoice, ContentCatalogue } from '../../../shared/console-api/content';
import type { CopyState } from '../../../shared/console-api/copy';
import type { LanguageNote } from '../../../shared/console-api/languages';

/**
 * What the content editor and the Copy area say of an English change, as the worker's validator
 * answered it (shared/console-api/languages.ts): what each other language's visitors see, each
 * text marked outdated (or out of the test) at its field, and the translators' to-do.
 */

const TITLE = 'screens.one_pager.title';

const note = (path: string, language: string, kind: LanguageNote['kind'], name: string) => ({
  path,
  language,
  key: TITLE,
  kind,
  message:
    kind === 'outdated'
      ? `visitors reading ${name} see their current text, outdated until the ${name} text is updated`
      : `visitors reading ${name} are not shown a test of this variant and are not counted, until it has its ${name} text`,
});

const SCREEN: ComposedScreenChoice = {
  id: 'one_pager',
  slot: 'landing',
  composition: ['hero'],
  sections: { hero: { id: 'hero', required: true, maxChars: 120, keys: [TITLE] } },
};

const CATALOGUE = {
  languages: ['en', 'de', 'fr'],
  rtl: [],
  texts: {
    en: { [TITLE]: 'Find out where your loved ones are' },
    de: { [TITLE]: 'Finde heraus, wo deine Liebsten sind' },
    fr: { [TITLE]: 'Découvrez où sont vos proches' },
  },
  overridden: {},
} as unknown as ContentCatalogue;

const CONTENT: ContentDocument = {
  screens: {
    one_pager: {
      copy: { en: { [TITLE]: 'New' } },
      variants: { b: { copy: { en: { [TITLE]: 'Newer' } } } },
    },
  },
};

/** What the worker's languages call answered for CONTENT (two languages, for short). */
const ANSWERED = [
  note(`content.screens.one_pager.copy.de.${TITLE}`, 'de', 'outdated', 'German'),
  note(`content.screens.one_pager.copy.fr.${TITLE}`, 'fr', 'outdated', 'French'),
  note(`content.screens.one_pager.variants.b.copy.de.${TITLE}`, 'de', 'untested', 'German'),
];

afterEach(cleanup);

/** The lines of the list a screen reader names `name`. */
const linesOf = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

/**
 * Every button and link named by an aria-label holds the words it shows, in order (WCAG 2.5.3, label in
 * name; axe's label-content-name-mismatch): a speech user says what they see.
 */
function labelsHoldTheirWords(): void {
  for (const control of document.querySelectorAll('button[aria-label], a[aria-label]')) {
    const shown = (control.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    expect(control.getAttribute('aria-label')?.toLowerCase(), shown).toContain(shown);
  }
}

describe('the content editor', () => {
  beforeEach(() => {
    $contentSelection.set({ ...$contentSelection.get(), screen: 'one_pager', language: 'en' });
  });

  it('takes the screen’s notes, or a variant’s at the fields its view shows', () => {
    expect(notesOfView(CONTENT, 'one_pager', null, ANSWERED).map((n) => n.kind)).toEqual([
      'outdated',
      'outdated',
    ]);
    expect(notesOfView(CONTENT, 'one_pager', 'b', ANSWERED)).toEqual([
      { ...ANSWERED[2], path: `content.screens.one_pager.copy.de.${TITLE}` },
    ]);
  });

  it('says what each other language sees, refuses nothing, and opens the field to write', async () => {
    const notes = notesOfView(CONTENT, 'one_pager', null, ANSWERED);
    render(<ContentIssues screen={SCREEN} issues={[]} notes={notes} />);
    expect(screen.queryByText('A publish would refuse these:')).toBeNull();
    // Each text is named as its field is, in words, the key as detail.
    expect(linesOf('What visitors in other languages see')).toEqual([
      `Visitors reading German see their current text, outdated until the German text is updated: Headline ${TITLE} `,
      `Visitors reading French see their current text, outdated until the French text is updated: Headline ${TITLE} `,
    ]);
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: `Write Headline ${TITLE} in French` }));
    labelsHoldTheirWords();
    expect($contentSelection.get()).toMatchObject({ language: 'fr', section: 'hero' });
  });

  it('marks a field outdated, or out of the test, as the notes say, and no other', () => {
    const props = {
      catalogue: CATALOGUE,
      screen: SCREEN,
      section: 'hero',
      content: CONTENT,
      issues: [],
    };
    const { unmount } = render(
      <CopyFields
        {...props}
        language="de"
        notes={notesOfView(CONTENT, 'one_pager', null, ANSWERED)}
      />,
    );
    const german = screen.getByRole('textbox', { name: `Headline ${TITLE} outdated` });
    expect(german.getAttribute('aria-describedby')).toContain('-note');
    expect(
      screen.getByText(
        'Visitors reading German see their current text, outdated until the German text is updated.',
      ),
    ).toBeTruthy();
    unmount();
    render(
      <CopyFields
        {...props}
        language="de"
        notes={notesOfView(CONTENT, 'one_pager', 'b', ANSWERED)}
      />,
    );
    expect(
      screen.getByRole('textbox', { name: `Headline ${TITLE} no test in this language` }),
    ).toBeTruthy();
    cleanup();
    render(
      <CopyFields
        {...props}
        language="en"
        notes={notesOfView(CONTENT, 'one_pager', null, ANSWERED)}
      />,
    );
    expect(screen.getByRole('textbox', { name: `Headline ${TITLE}` })).toBeTruthy();
  });
});

describe('the Copy area', () => {
  const copyNote = (language: string, name: string) =>
    ({ ...note(`copy.${language}.${TITLE}`, language, 'outdated', name) }) as LanguageNote;
  const STATE: CopyState = {
    languages: [
      { code: 'en', name: 'English' },
      { code: 'de', name: 'German' },
    ],
    areas: [{ id: 'common', shows: '' }],
    keys: [
      {
        key: TITLE,
        area: 'common',
        english: 'Find out where your loved ones are',
        bundled: {
          en: 'Find out where your loved ones are',
          de: 'Finde heraus, wo deine Liebsten sind',
        },
      },
    ],
    live: { en: { [TITLE]: 'New' } },
    head: null,
    drift: null,
    pages: {},
    outdated: [copyNote('de', 'German'), ANSWERED[2]!],
  };

  beforeEach(() => {
    $copy.set({ kind: 'ready', state: STATE });
    $copyEdits.set({});
    $copyReview.set({ kind: 'idle' });
    $copySelected.set(null);
  });

  it('lists each language’s outdated texts to translate, and opens the Copy area’s key', async () => {
    render(<CopyTodo state={STATE} />);
    expect(screen.getByRole('heading', { name: 'To translate (2)' })).toBeTruthy();
    expect(linesOf('Texts to translate, by language')).toEqual([
      `Visitors reading German see their current text, outdated until the German text is updated: Headline ${TITLE} `,
      `Visitors reading German are not shown a test of this variant and are not counted, until it has its German text: Headline ${TITLE} on screen one_pager, variant b `,
    ]);
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: `Open Headline ${TITLE} to write its German` }));
    labelsHoldTheirWords();
    expect($copySelected.get()).toBe(TITLE);
    $copyEdits.set({ de: { [TITLE]: 'Neu' } });
    expect(await screen.findByText('written in your draft')).toBeTruthy();
    cleanup();
    render(<CopyTodo state={{ ...STATE, outdated: [] }} />);
    expect(screen.getByRole('heading', { name: 'To translate (0)' })).toBeTruthy();
  });

  it('marks the German field outdated until the draft writes it', async () => {
    render(<CopyEditor entry={STATE.keys[0]!} state={STATE} />);
    expect(screen.getByLabelText(/German \(de\)/).closest('.field')?.textContent).toContain(
      'outdated',
    );
    await userEvent.setup().type(screen.getByLabelText(/German \(de\)/), '!');
    expect(screen.getByLabelText(/German \(de\)/).closest('.field')?.textContent).not.toContain(
      'outdated',
    );
  });

  it('after a review, says what each language sees once the draft is published', () => {
    const document = draftDocument(STATE.live, {}, () => undefined);
    $copyReview.set({
      kind: 'checked',
      document: JSON.stringify(document),
      diff: [],
      languages: [copyNote('de', 'German')],
      publishing: false,
    });
    render(<CopyLanguages />);
    const list = screen.getByRole('list', {
      name: 'What visitors in other languages see once published',
    });
    expect(list.textContent).toBe(
      `Visitors reading German see their current text, outdated until the German text is updated: ${TITLE} `,
    );
  });
});

describe('the review of the draft', () => {
  it('says, per language, what its visitors get of each screen’s and variant’s English change', () => {
    render(<ReviewLanguages notes={ANSWERED} />);
    expect(linesOf('What visitors in other languages see once published')).toEqual([
      `Visitors reading German see their current text, outdated until the German text is updated: Headline ${TITLE} on screen one_pager `,
      `Visitors reading French see their current text, outdated until the French text is updated: Headline ${TITLE} on screen one_pager `,
      `Visitors reading German are not shown a test of this variant and are not counted, until it has its German text: Headline ${TITLE} on screen one_pager, variant b `,
    ]);
    cleanup();
    render(<ReviewLanguages notes={[]} />);
    expect(screen.queryByRole('list')).toBeNull();
  });
});
