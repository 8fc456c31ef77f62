import { beforeEach, describe, expect, it } from 'vitest';
import {
  createComposedScreen,
  deleteComposedScreen,
} from '../../../console/content/stores/composed-screens';
import {
  $contentCatalogue,
  $contentSelection,
  createVariant,
  moveSectionTo,
  setText,
} from '../../../console/content/stores/content-editor';
import {
  composedNameProblem,
  editableScreens,
  issuesThroughLens,
  withComposedChoices,
} from '../../../console/kit/composed-screens';
import { $draft, addScreen, startDraft } from '../../../console/kit/stores/draft';
import type { ComposedScreenChoice, ContentCatalogue } from '../../../shared/console-api/content';
import { consoleState, OPENING_SELECTION } from './fixtures';

/**
 * The console's composed screens: made and named in the draft, edited with the editor's own
 * edits under `content.composed`, offered to flows and experiments, and kept while a flow
 * shows them.
 */

const section = (id: string, required = false) => ({ id, required, maxChars: 160, keys: [] });
const LANDING: ComposedScreenChoice = {
  id: 'one_pager',
  slot: 'landing',
  composition: ['hero', 'phone_form', 'reviews', 'footer'],
  sections: {
    hero: section('hero', true),
    phone_form: section('phone_form', true),
    reviews: section('reviews'),
    footer: section('footer', true),
  },
};
const TITLE = 'screens.one_pager.title';
const CATALOGUE: ContentCatalogue = {
  screens: [LANDING],
  languages: ['en'],
  rtl: [],
  themes: ['geozilla'],
  texts: { en: { [TITLE]: 'Old' } },
  overridden: { en: [] },
};

const content = () => $draft.get()!.document.content;

beforeEach(() => {
  startDraft(consoleState());
  $contentCatalogue.set({ kind: 'ready', catalogue: CATALOGUE });
  $contentSelection.set(OPENING_SELECTION);
});

describe('a composed screen in the console', () => {
  it('is made under a name checked as typed, and selected', () => {
    expect(composedNameProblem(content(), 'Spring')).toMatch(/lower-case/);
    expect(createComposedScreen({ id: 'api', slot: 'landing', from: 'one_pager' })).toMatch(
      /a path the site already serves/,
    );
    expect(createComposedScreen({ id: 'spring', slot: 'landing', from: 'one_pager' })).toBeNull();
    expect(createComposedScreen({ id: 'spring', slot: 'landing', from: 'one_pager' })).toBe(
      'A screen named spring already exists.',
    );
    expect(content().composed).toEqual({ spring: { slot: 'landing', from: 'one_pager' } });
    expect($contentSelection.get().screen).toBe('spring');
    expect(editableScreens(CATALOGUE, content()).map((screen) => screen.id)).toEqual([
      'one_pager',
      'spring',
    ]);
  });

  it("takes the editor's edits and variants under content.composed, the screen in code untouched", () => {
    createComposedScreen({ id: 'spring', slot: 'landing', from: 'one_pager' });
    moveSectionTo(2, 0);
    setText('en', TITLE, 'New');
    expect(createVariant('b')).toBeNull();
    moveSectionTo(1, 2);
    const spring = content().composed?.spring;
    expect(spring).toMatchObject({
      slot: 'landing',
      from: 'one_pager',
      sections: ['reviews', 'hero', 'phone_form', 'footer'].map((id) => ({ id, visible: true })),
      copy: { en: { [TITLE]: 'New' } },
    });
    expect(spring?.variants?.b?.sections?.map(({ id }) => id)).toEqual([
      'reviews',
      'phone_form',
      'hero',
      'footer',
    ]);
    expect(content().screens).toEqual({});
  });

  it('is offered where screens are picked, as the kind of screen it starts from', () => {
    createComposedScreen({ id: 'spring', slot: 'landing', from: 'one_pager' });
    expect(withComposedChoices([{ id: 'one_pager', kind: 'landing' }], content())).toEqual([
      { id: 'one_pager', kind: 'landing' },
      { id: 'spring', kind: 'landing' },
    ]);
  });

  it('offers a quiz’s questions where screens are picked, as questions', () => {
    const withQuestion = {
      ...content(),
      questions: {
        q_who: { kind: 'info', title: { en: 'Good to know' } },
      },
    } as unknown as ReturnType<typeof content>;
    expect(withComposedChoices([{ id: 'one_pager', kind: 'landing' }], withQuestion)).toEqual([
      { id: 'one_pager', kind: 'landing' },
      { id: 'q_who', kind: 'question' },
    ]);
  });

  it('shows the check’s findings beside the fields a screen’s would be at', () => {
    createComposedScreen({ id: 'spring', slot: 'landing', from: 'one_pager' });
    const issues = [
      { path: 'content.composed.spring.sections', message: 'must include "phone_form"' },
      { path: 'content.composed.springtime', message: 'another screen' },
    ];
    expect(issuesThroughLens(content(), 'spring', issues)).toEqual([
      { path: 'content.screens.spring.sections', message: 'must include "phone_form"' },
      { path: 'content.composed.springtime', message: 'another screen' },
    ]);
  });

  it('cannot be deleted while a flow shows it, and can once none does', () => {
    createComposedScreen({ id: 'spring', slot: 'landing', from: 'one_pager' });
    addScreen('default', 'spring');
    expect(deleteComposedScreen()).toBe(
      'spring cannot be deleted: flow "default" still shows it. Take it out of it first.',
    );
    expect(content().composed?.spring).toBeDefined();
    const flows = $draft.get()!.document.flows.flows;
    $draft.set({
      ...$draft.get()!,
      document: {
        ...$draft.get()!.document,
        flows: {
          ...$draft.get()!.document.flows,
          flows: { ...flows, default: flows.default!.filter((screen) => screen !== 'spring') },
        },
      },
    });
    expect(deleteComposedScreen()).toBeNull();
    expect(content().composed).toEqual({});
    expect($contentSelection.get().screen).toBe('one_pager');
  });
});
