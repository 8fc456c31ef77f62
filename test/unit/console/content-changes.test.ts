import { describe, expect, it } from 'vitest';
import { contentChanges } from '../../../console/content/content-changes';
import type { ContentDocument } from '../../../shared/config/content';

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
});
