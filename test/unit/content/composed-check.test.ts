import { describe, expect, it } from 'vitest';
import { composedIdProblem } from '../../../shared/composed-screen-name';
import { isScreenRef, screenOfRef } from '../../../shared/composed-screens';
import { parseContent } from '../../../shared/config/content';
import { SCREEN_IDS } from '../../../shared/screens';
import { contentIssues } from '../../../worker/content/check';
import { SPRING_LANDING, SPRING_SECTIONS } from '../../fixtures/composed-landing';

/**
 * A screen a marketer composes (`content.composed`): its name, the screen it starts from, its
 * slot and its sections, each refusal at its path.
 */

const check = (raw: unknown) => {
  const parsed = parseContent(raw);
  if (!parsed.ok) return parsed.issues ?? [];
  return contentIssues(parsed.value);
};

const SPRING = SPRING_LANDING.composed!.spring_landing!;
const composed = (id: string, screen: Record<string, unknown>) => ({
  composed: { [id]: { ...SPRING, ...screen } },
});

describe('a composed screen', () => {
  it('passes with its own sections and headline, or with none of its own', () => {
    expect(check(SPRING_LANDING)).toEqual([]);
    expect(
      check({ composed: { plain_landing: { slot: 'landing', from: 'one_pager_ai' } } }),
    ).toEqual([]);
  });

  it.each([
    [
      'one_pager',
      '"one_pager" begins like the screens in code ("one_pager…"): choose a name of its own',
    ],
    ['console', '"console" is a path the site already serves: choose another name'],
    ['pictures', '"pictures" is a path the site already serves: choose another name'],
    [
      'checkout_spring',
      '"checkout_spring" begins like the screens in code ("checkout…"): choose a name of its own',
    ],
    ['Spring', '"Spring" must be 3 to 40 lower-case letters, digits or _, starting with a letter'],
    ['x', '"x" must be 3 to 40 lower-case letters, digits or _, starting with a letter'],
  ])('refuses the name %s, saying why', (id, message) => {
    expect(check(composed(id, {}))).toEqual([{ path: `composed.${id}`, message }]);
  });

  it('starts from a screen made of sections, of the slot it says', () => {
    expect(
      check(composed('spring_landing', { from: 'checkout-test', sections: undefined })),
    ).toEqual([
      {
        path: 'content.composed.spring_landing.from',
        message: expect.stringMatching(
          /^"checkout-test" is not made of sections: start from one of one_pager/,
        ),
      },
    ]);
    expect(check(composed('spring_landing', { slot: 'paywall' }))).toEqual([
      {
        path: 'content.composed.spring_landing.slot',
        message: 'must be "landing", the slot of one_pager, which it starts from',
      },
    ]);
    expect(check(composed('spring_landing', { from: 'nowhere' }))).toMatchObject([
      { path: 'composed.spring_landing.from' },
    ]);
  });

  it('keeps the sections its slot needs, by path', () => {
    const withoutForm = SPRING_SECTIONS.filter((id) => id !== 'phone_form');
    expect(
      check(
        composed('spring_landing', { sections: withoutForm.map((id) => ({ id, visible: true })) }),
      ),
    ).toEqual([
      {
        path: 'content.composed.spring_landing.sections',
        message: 'must include "phone_form": a landing needs it',
      },
    ]);
    const hidden = SPRING_SECTIONS.map((id) => ({ id, visible: id !== 'phone_form' }));
    expect(check(composed('spring_landing', { sections: hidden }))).toEqual([
      {
        path: 'content.composed.spring_landing.sections.2.visible',
        message: 'must be true: a landing needs its "phone_form"',
      },
    ]);
  });

  it('holds its copy to the sections it shows and its variants to the same rules', () => {
    expect(
      check(composed('spring_landing', { copy: { en: { 'searching.title': 'Hi' } } })),
    ).toMatchObject([{ path: 'content.composed.spring_landing.copy.en.searching.title' }]);
    expect(
      check(
        composed('spring_landing', {
          variants: { bare: { sections: [{ id: 'hero', visible: true }] } },
        }),
      ),
    ).toEqual([
      {
        path: 'content.composed.spring_landing.variants.bare.sections',
        message: 'must include "phone_form": a landing needs it',
      },
      {
        path: 'content.composed.spring_landing.variants.bare.sections',
        message: 'must include "footer": a landing needs it',
      },
    ]);
  });
});

describe('a screen reference', () => {
  it('is never a screen in code taken for a composed one', () => {
    for (const id of SCREEN_IDS) expect(composedIdProblem(id)).not.toBeNull();
  });

  it('resolves a composed screen to the screen it starts from, and nothing else', () => {
    expect(screenOfRef(SPRING_LANDING, 'spring_landing')).toBe('one_pager');
    expect(screenOfRef(SPRING_LANDING, 'signup')).toBe('signup');
    expect(screenOfRef(SPRING_LANDING, 'autumn_landing')).toBeNull();
    expect(screenOfRef(SPRING_LANDING, 'toString')).toBeNull();
    expect(isScreenRef('autumn_landing')).toBe(true);
    expect(isScreenRef('api')).toBe(false);
  });
});
