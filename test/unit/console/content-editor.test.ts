import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addableSections,
  arrangementOf,
  keysInLanguage,
  withCopy,
  withSectionAdded,
  withSectionMovedTo,
  withSectionRemoved,
  withSectionVisible,
} from '../../../console/content/content-edits';
import {
  pictureOf,
  withPictureAlt,
  withPictureChosen,
} from '../../../console/content/content-picture';
import { contentView, withNewVariant, withView } from '../../../console/content/content-variants';
import {
  $contentAnnouncement,
  $contentCatalogue,
  $contentSelection,
  addSection,
  createVariant,
  deleteVariant,
  moveSectionTo,
  removeSection,
  resetText,
  select,
  selectRoute,
  selectScreen,
  setSectionVisible,
  setText,
} from '../../../console/content/stores/content-editor';
import {
  followServedScreen,
  openContentEditor,
} from '../../../console/content/stores/served-screen';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { ComposedScreenChoice, ContentCatalogue } from '../../../shared/console-api/content';
import type { VisitorGetsRequest } from '../../../shared/console-api/routes';
import { consoleState, OPENING_SELECTION, visitorGetsAnswer } from './fixtures';

/** A landing as the worker's catalogue lists it: hero and form required, four optional kinds. */
const section = (id: string, required = false, keys: string[] = []) => ({
  id,
  required,
  maxChars: 160,
  keys,
});
const SCREEN: ComposedScreenChoice = {
  id: 'one_pager',
  slot: 'landing',
  composition: ['hero', 'phone_form', 'features', 'reviews', 'footer'],
  sections: {
    hero: section('hero', true, ['screens.one_pager.title']),
    phone_form: section('phone_form', true),
    features: section('features'),
    reviews: section('reviews'),
    faq: section('faq'),
    footer: section('footer', true),
  },
};
const TITLE = 'screens.one_pager.title';
const CATALOGUE: ContentCatalogue = {
  screens: [SCREEN],
  languages: ['en', 'ar', 'de'],
  rtl: ['ar'],
  themes: ['geozilla'],
  texts: { en: { [TITLE]: 'Old' }, ar: { [TITLE]: 'قديم' }, de: { [TITLE]: 'Alt' } },
  overridden: { en: [], ar: [], de: [] },
};

const ids = (content = $draft.get()?.document.content ?? EMPTY_CONTENT) =>
  arrangementOf(content, SCREEN).map((row) => (row.visible ? row.id : `(${row.id})`));

describe('the content edits', () => {
  it('lists code’s composition, all shown, until the content lists its own', () => {
    expect(ids(EMPTY_CONTENT)).toEqual(['hero', 'phone_form', 'features', 'reviews', 'footer']);
    expect(arrangementOf(EMPTY_CONTENT, SCREEN)[0]).toEqual({
      id: 'hero',
      visible: true,
      required: true,
    });
    expect(addableSections(EMPTY_CONTENT, SCREEN)).toEqual(['faq']);
  });

  it('moves a section, and a move back to code’s order leaves no content', () => {
    const moved = withSectionMovedTo(EMPTY_CONTENT, SCREEN, 3, 1);
    expect(ids(moved)).toEqual(['hero', 'reviews', 'phone_form', 'features', 'footer']);
    expect(moved.screens.one_pager?.sections?.[1]).toEqual({ id: 'reviews', visible: true });
    expect(withSectionMovedTo(moved, SCREEN, 1, 3)).toEqual(EMPTY_CONTENT);
    expect(withSectionMovedTo(EMPTY_CONTENT, SCREEN, 0, 9)).toBe(EMPTY_CONTENT);
  });

  it('hides and removes an optional section, never a required one', () => {
    const hidden = withSectionVisible(EMPTY_CONTENT, SCREEN, 'reviews', false);
    expect(ids(hidden)).toEqual(['hero', 'phone_form', 'features', '(reviews)', 'footer']);
    expect(withSectionVisible(EMPTY_CONTENT, SCREEN, 'phone_form', false)).toBe(EMPTY_CONTENT);
    expect(withSectionRemoved(EMPTY_CONTENT, SCREEN, 'hero')).toBe(EMPTY_CONTENT);
    expect(ids(withSectionRemoved(hidden, SCREEN, 'features'))).toEqual([
      'hero',
      'phone_form',
      '(reviews)',
      'footer',
    ]);
  });

  it('adds a section the slot has before the required last one, once', () => {
    const added = withSectionAdded(EMPTY_CONTENT, SCREEN, 'faq');
    expect(ids(added)).toEqual(['hero', 'phone_form', 'features', 'reviews', 'faq', 'footer']);
    expect(withSectionAdded(added, SCREEN, 'faq')).toBe(added);
    expect(withSectionAdded(EMPTY_CONTENT, SCREEN, 'stats')).toBe(EMPTY_CONTENT);
    expect(addableSections(added, SCREEN)).toEqual([]);
  });

  it('keeps a text per language; the text shown anyway is no override', () => {
    const set = withCopy(EMPTY_CONTENT, 'one_pager', {
      language: 'de',
      key: TITLE,
      text: 'Neu',
      base: 'Alt',
    });
    expect(set.screens.one_pager?.copy).toEqual({ de: { [TITLE]: 'Neu' } });
    const back = withCopy(set, 'one_pager', {
      language: 'de',
      key: TITLE,
      text: 'Alt',
      base: 'Alt',
    });
    expect(back).toEqual(EMPTY_CONTENT);
  });

  it('gives a counted key the plural forms of the language', () => {
    const russian = {
      'x.days_one': 'день',
      'x.days_few': 'дня',
      'x.days_many': 'дней',
      'x.days_other': 'дня',
    };
    expect(keysInLanguage(['x.title', 'x.days_one', 'x.days_other'], russian)).toEqual([
      'x.title',
      'x.days_one',
      'x.days_few',
      'x.days_many',
      'x.days_other',
    ]);
  });
});

describe('the content editor’s store', () => {
  beforeEach(() => {
    startDraft(consoleState());
    $contentCatalogue.set({ kind: 'ready', catalogue: CATALOGUE });
    $contentSelection.set(OPENING_SELECTION);
    $contentAnnouncement.set('');
  });

  it('moves into the draft and says where the section is now', () => {
    moveSectionTo(3, 1);
    expect(ids()).toEqual(['hero', 'reviews', 'phone_form', 'features', 'footer']);
    expect($contentAnnouncement.get()).toBe('Reviews moved to position 2 of 5.');
    moveSectionTo(0, -1);
    expect($contentAnnouncement.get()).toBe('Reviews moved to position 2 of 5.');
  });

  it('hides, adds and removes, and says nothing of a required section it kept', () => {
    setSectionVisible('reviews', false);
    expect($contentAnnouncement.get()).toBe('Reviews hidden.');
    addSection('faq');
    expect($contentAnnouncement.get()).toBe('Questions added at position 5 of 6.');
    expect($contentSelection.get().section).toBe('faq');
    removeSection('faq');
    expect($contentAnnouncement.get()).toBe('Questions removed.');
    expect($contentSelection.get().section).toBeNull();
    setSectionVisible('hero', false);
    removeSection('footer');
    expect($contentAnnouncement.get()).toBe('Questions removed.');
    expect(ids()).toEqual(['hero', 'phone_form', 'features', '(reviews)', 'footer']);
  });

  it('edits a content variant apart from what every visitor sees', () => {
    setText('de', TITLE, 'Für alle');
    expect(createVariant('Bad Name')).toMatch(/lower-case letters/);
    expect(createVariant('testimonials_first')).toBeNull();
    expect(createVariant('testimonials_first')).toBe('"testimonials_first" is already a variant.');
    expect($contentSelection.get().variant).toBe('testimonials_first');
    // The variant starts as the screen: its list is the screen's, its texts none of its own.
    moveSectionTo(3, 1);
    setText('en', TITLE, 'Variant headline');
    const own = $draft.get()?.document.content.screens.one_pager;
    expect(own?.sections).toBeUndefined();
    expect(own?.copy).toEqual({ de: { [TITLE]: 'Für alle' } });
    expect(own?.variants?.testimonials_first).toEqual({
      sections: ['hero', 'reviews', 'phone_form', 'features', 'footer'].map((id) => ({
        id,
        visible: true,
      })),
      copy: { en: { [TITLE]: 'Variant headline' } },
    });
    // Back to what every visitor sees: its list is code's, untouched.
    select({ variant: null });
    expect(ids()).toEqual(['hero', 'phone_form', 'features', 'reviews', 'footer']);
    select({ variant: 'testimonials_first' });
    deleteVariant();
    expect($contentSelection.get().variant).toBeNull();
    expect($draft.get()?.document.content.screens.one_pager).toEqual({
      copy: { de: { [TITLE]: 'Für alle' } },
    });
  });

  it('previews a route of the draft, editing the content variant it shows', () => {
    expect(createVariant('spring')).toBeNull();
    select({ variant: null });
    const draft = $draft.get();
    if (!draft) throw new Error('no draft');
    const routing = draft.document.routing;
    $draft.set({
      ...draft,
      document: {
        ...draft.document,
        routing: {
          ...routing,
          routes: [
            { id: 'spring', flow: 'default', plans: ['pro'], content: { one_pager: 'spring' } },
            ...routing.routes,
          ],
        },
      },
    });
    selectRoute('spring');
    expect($contentSelection.get()).toMatchObject({ route: 'spring', variant: 'spring' });
    expect($contentAnnouncement.get()).toBe(
      'The preview shows route spring’s visitors: it shows variant spring, which edits now change.',
    );
    // Another screen, which the route shows no variant of: the screen itself.
    selectScreen('one_pager_all');
    expect($contentSelection.get()).toMatchObject({ route: 'spring', variant: null });
    selectScreen('one_pager');
    expect($contentSelection.get().variant).toBe('spring');
    // A route whose variant the draft deleted shows the screen.
    deleteVariant();
    selectRoute('spring');
    expect($contentSelection.get().variant).toBeNull();
    selectRoute(null);
    expect($contentSelection.get()).toMatchObject({ route: null, variant: null });
  });

  it('moves a route’s preview to the landing its visitors are served, as the worker answers', async () => {
    const AI: ComposedScreenChoice = { ...SCREEN, id: 'one_pager_ai' };
    $contentCatalogue.set({ kind: 'ready', catalogue: { ...CATALOGUE, screens: [SCREEN, AI] } });
    const asked: VisitorGetsRequest[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        expect(url).toBe(CONSOLE_API.visitorGets);
        asked.push(JSON.parse(String(init?.body)) as VisitorGetsRequest);
        return new Response(
          JSON.stringify(visitorGetsAnswer('default', ['one_pager', 'signup'], 'one_pager_ai')),
        );
      }),
    );
    try {
      selectRoute('default');
      await followServedScreen('default');
    } finally {
      vi.unstubAllGlobals();
    }
    // The draft is what the worker is asked of: what the route would serve once published.
    expect(asked).toEqual([
      { route: 'default', country: null, platform: 'other', document: $draft.get()?.document },
    ]);
    expect($contentSelection.get()).toMatchObject({ screen: 'one_pager_ai', route: 'default' });
    expect($contentAnnouncement.get()).toBe(
      'Route default’s visitors get one_pager_ai (AI landing’s ai is rolled out), not one_pager: the editor shows it.',
    );
  });

  it('opens on the landing the default visitor is served, not one a roll-out replaced', async () => {
    const AI: ComposedScreenChoice = { ...SCREEN, id: 'one_pager_ai' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === CONSOLE_API.visitorGets
          ? new Response(
              JSON.stringify(visitorGetsAnswer('default', ['one_pager', 'signup'], 'one_pager_ai')),
            )
          : new Response(JSON.stringify({ ...CATALOGUE, screens: [SCREEN, AI] })),
      ),
    );
    // The console's first opening of the Content page.
    $contentCatalogue.set({ kind: 'loading' });
    try {
      expect($contentSelection.get()).toMatchObject({ screen: 'one_pager', route: null });
      await openContentEditor(null);
    } finally {
      vi.unstubAllGlobals();
    }
    expect($contentCatalogue.get().kind).toBe('ready');
    expect($contentSelection.get()).toMatchObject({ screen: 'one_pager_ai', route: null });
    expect($contentAnnouncement.get()).toMatch(/^Route default’s visitors get one_pager_ai/);

    // Back on the page after another: the screen the marketer chose stays, nothing is asked.
    select({ screen: 'one_pager' });
    const asked = vi.fn();
    vi.stubGlobal('fetch', asked);
    try {
      await openContentEditor(null);
    } finally {
      vi.unstubAllGlobals();
    }
    expect($contentSelection.get().screen).toBe('one_pager');
    expect(asked).not.toHaveBeenCalled();
    // A screen's own address opens that screen, not the one its route's visitors get.
    await openContentEditor('one_pager_ai');
    expect($contentSelection.get().screen).toBe('one_pager_ai');
  });

  it('edits copy into the draft, and gives it back', () => {
    setText('en', TITLE, 'New');
    expect($draft.get()?.document.content.screens.one_pager?.copy?.en).toEqual({ [TITLE]: 'New' });
    setText('en', TITLE, 'Old');
    expect($draft.get()?.document.content).toEqual(EMPTY_CONTENT);
    setText('de', TITLE, 'Neu');
    resetText('de', TITLE);
    expect($draft.get()?.document.content).toEqual(EMPTY_CONTENT);
  });
});

describe('the picture of a screen', () => {
  const record = (id: string) => ({
    id: id.repeat(64),
    type: 'png' as const,
    width: 800,
    height: 500,
    bytes: 1000,
    uploadedBy: 'a@b.c',
    uploadedAt: '2026-11-26T10:00:00.000Z',
    thumbnail: `/pictures/${id.repeat(64)}-320.jpg`,
  });

  it('keeps its descriptions when chosen again, and starts them afresh for another picture', () => {
    let content = withPictureChosen(EMPTY_CONTENT, 'one_pager', record('a'));
    content = withPictureAlt(content, 'one_pager', 'en', 'A parent and a map');
    content = withPictureAlt(content, 'one_pager', 'de', '  ');
    expect(pictureOf(content, 'one_pager')).toEqual({
      id: 'a'.repeat(64),
      width: 800,
      height: 500,
      alt: { en: 'A parent and a map' },
    });
    expect(
      pictureOf(withPictureChosen(content, 'one_pager', record('a')), 'one_pager')?.alt,
    ).toEqual({ en: 'A parent and a map' });
    expect(
      pictureOf(withPictureChosen(content, 'one_pager', record('b')), 'one_pager')?.alt,
    ).toEqual({});
  });

  it('a variant’s own picture is kept apart; the screen’s stays what every visitor sees', () => {
    const base = withPictureChosen(
      withNewVariant(EMPTY_CONTENT, 'one_pager', 'photo'),
      'one_pager',
      record('a'),
    );
    const view = withPictureChosen(
      contentView(base, 'one_pager', 'photo'),
      'one_pager',
      record('b'),
    );
    const written = withView(base, 'one_pager', 'photo', view, ['hero', 'phone_form', 'footer']);
    expect(written.screens.one_pager?.picture?.id).toBe('a'.repeat(64));
    expect(written.screens.one_pager?.variants?.photo?.picture?.id).toBe('b'.repeat(64));
    // The same picture as the screen's is no picture of the variant's own.
    const same = withView(base, 'one_pager', 'photo', contentView(base, 'one_pager', 'photo'), []);
    expect(same.screens.one_pager?.variants?.photo).toEqual({});
  });
});
