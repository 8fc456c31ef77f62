import { describe, expect, it } from 'vitest';
import { changedLanguages, contentChanges } from '../../../console/content/content-changes';
import type { ContentDocument, ScreenContent } from '../../../shared/config/content';

const headline = (text: string) => ({ en: { 'screens.one_pager.title': text } });
const doc = (screens: ContentDocument['screens']): ContentDocument => ({ screens });

describe('what the review draws side by side', () => {
  it('names nothing when nothing changes', () => {
    const same = doc({
      one_pager: { copy: headline('A'), variants: { b: { copy: headline('B') } } },
    });
    expect(contentChanges(same, structuredClone(same))).toEqual([]);
  });

  it('names an added variant, and not the screen its edits leave alone', () => {
    const before = doc({ one_pager: { copy: headline('A') } });
    const after = doc({
      one_pager: { copy: headline('A'), variants: { b: { copy: headline('B') } } },
    });
    expect(contentChanges(before, after)).toEqual([
      { screen: 'one_pager', variant: 'b', added: true },
    ]);
  });

  it('names a changed variant, and one whose inherited screen copy changes', () => {
    const before = doc({
      one_pager: {
        copy: headline('A'),
        variants: {
          b: { copy: headline('B') },
          order: { sections: [{ id: 'hero', visible: true }] },
        },
      },
    });
    const after = doc({
      one_pager: {
        copy: headline('A2'),
        variants: {
          b: { copy: headline('B') },
          order: { sections: [{ id: 'hero', visible: true }] },
        },
      },
    });
    // b overrides the headline itself, so only the screen and the order variant change.
    expect(contentChanges(before, after)).toEqual([
      { screen: 'one_pager', variant: null, added: false },
      { screen: 'one_pager', variant: 'order', added: false },
    ]);
    const edited = structuredClone(before);
    edited.screens.one_pager!.variants!.b = { copy: headline('B2') };
    expect(contentChanges(before, edited)).toEqual([
      { screen: 'one_pager', variant: 'b', added: false },
    ]);
  });

  it('leaves a deleted variant to the text diff', () => {
    const before = doc({ one_pager: { variants: { b: { copy: headline('B') } } } });
    expect(contentChanges(before, doc({}))).toEqual([]);
  });

  describe('of composed screens', () => {
    const spring = (title: string, variants?: ScreenContent['variants']) => ({
      slot: 'landing',
      from: 'one_pager' as const,
      sections: [{ id: 'hero', visible: true }],
      copy: headline(title),
      ...(variants ? { variants } : {}),
    });
    const withComposed = (composed: ContentDocument['composed']): ContentDocument => ({
      screens: {},
      composed,
    });

    it('names a new one, and each of its variants, as new with nothing live', () => {
      const after = withComposed({ spring_landing: spring('A', { b: { copy: headline('B') } }) });
      expect(contentChanges(doc({}), after)).toEqual([
        { screen: 'spring_landing', variant: null, added: true, newScreen: true },
        { screen: 'spring_landing', variant: 'b', added: true, newScreen: true },
      ]);
    });

    it('names a changed one and its changed variant, not one left alone', () => {
      const before = withComposed({
        spring_landing: spring('A', { b: { copy: headline('B') } }),
        autumn_landing: spring('C'),
      });
      const after = structuredClone(before);
      after.composed!.spring_landing!.variants!.b = { copy: headline('B2') };
      expect(contentChanges(before, after)).toEqual([
        { screen: 'spring_landing', variant: 'b', added: false },
      ]);
      after.composed!.spring_landing!.copy = headline('A2');
      after.composed!.spring_landing!.from = 'one_pager_ai';
      expect(contentChanges(before, after)).toEqual([
        { screen: 'spring_landing', variant: null, added: false },
        { screen: 'spring_landing', variant: 'b', added: false },
      ]);
    });

    it('names one whose from changes, and leaves a deleted one to the text diff', () => {
      const before = withComposed({ spring_landing: spring('A') });
      const redrawn = withComposed({ spring_landing: { ...spring('A'), from: 'one_pager_ai' } });
      expect(contentChanges(before, redrawn)).toEqual([
        { screen: 'spring_landing', variant: null, added: false },
      ]);
      expect(contentChanges(before, doc({}))).toEqual([]);
    });
  });
});

describe('the languages a screen is drawn in by the review', () => {
  const german = (text: string) => ({ de: { 'screens.one_pager.title': text } });

  it('are those whose texts the change changes, a variant inheriting the screen’s', () => {
    const before = doc({
      one_pager: { copy: { ...headline('A'), ...german('D') }, variants: { b: {} } },
    });
    const after = doc({
      one_pager: {
        copy: { ...headline('A'), ...german('D2') },
        variants: { b: { copy: headline('B') } },
      },
    });
    const screen = { screen: 'one_pager', variant: null, added: false };
    expect(changedLanguages(before, after, screen)).toEqual(['de']);
    expect(changedLanguages(before, after, { ...screen, variant: 'b' })).toEqual(['en', 'de']);
    // Sections alone change no language.
    const moved = doc({
      one_pager: { ...before.screens.one_pager, sections: [{ id: 'hero', visible: true }] },
    });
    expect(changedLanguages(before, moved, screen)).toEqual([]);
  });

  it('are every language a new screen has texts in', () => {
    const after: ContentDocument = {
      screens: {},
      composed: { spring: { slot: 'landing', from: 'one_pager', copy: { fr: { x: 'y' } } } },
    };
    const change = { screen: 'spring', variant: null, added: true, newScreen: true as const };
    expect(changedLanguages({ screens: {} }, after, change)).toEqual(['fr']);
  });
});
