import { describe, expect, it } from 'vitest';
import {
  newQuestion,
  QUESTION_KINDS,
  rangeTargets,
  withChoicePicture,
  withInfoPicture,
  withoutQuestion,
  withPictureAlt,
  withQuestion,
  withRangeTargets,
  withText,
} from '../../../console/quiz/question-edits';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import { question } from '../../../shared/quiz/question';

/**
 * The console's question edits (console/quiz/question-edits.ts): a new question of every kind is
 * one the content's schema takes as it is (a picture choice once its choices have pictures), so
 * a marketer who makes one can publish it; an empty line under the question goes, the other
 * languages' words with it only when none is left.
 */

/** A picture of the library, as its record gives it. */
const PICTURE = { id: 'a'.repeat(64), width: 640, height: 480 };

describe('the console’s question edits', () => {
  it('make a question of every kind that the content takes, a picture choice once it has pictures', () => {
    for (const { kind } of QUESTION_KINDS) {
      let made = newQuestion(kind, 'who', 'Who do you want to keep safe?');
      if (kind === 'pictures') {
        expect(question.safeParse(made).success).toBe(false);
        for (const index of [0, 1]) made = withChoicePicture(made, index, PICTURE);
      }
      const parsed = question.safeParse(made);
      expect(parsed.success ? [] : parsed.error.issues, kind).toEqual([]);
    }
    const pictured = withChoicePicture(newQuestion('pictures', 'look', 'Which?'), 0, PICTURE);
    expect('choices' in pictured && pictured.choices[0]?.picture).toEqual({ ...PICTURE, alt: {} });
    const unpictured = withChoicePicture(pictured, 0, null);
    expect('choices' in unpictured && unpictured.choices[0]).not.toHaveProperty('picture');
  });

  it('drop an emptied line under the question, and keep the others’ languages', () => {
    const asked = newQuestion('info', 'who', 'Good to know');
    const lined = withText(asked, 'subtitle', 'Read this');
    expect(lined.subtitle).toEqual({ en: 'Read this' });
    expect(withText(lined, 'subtitle', '')).not.toHaveProperty('subtitle');
    const both = { ...lined, subtitle: { en: 'Read this', de: 'Lies das' } };
    expect(withText(both, 'subtitle', '').subtitle).toEqual({ de: 'Lies das' });
  });

  it('add and take out a question', () => {
    const asked = newQuestion('building', 'who', 'Building your plan');
    const added = withQuestion(EMPTY_CONTENT, 'q_build', asked);
    expect(added.questions).toEqual({ q_build: asked });
    expect(withoutQuestion(added, 'q_build').questions).toEqual({});
  });
});

describe('an information screen’s picture', () => {
  const info = { kind: 'info' as const, title: { en: 'Good to know' } };
  const picture = { id: 'b'.repeat(64), width: 800, height: 600 };

  it('keeps its descriptions while the same picture stays, and starts afresh with another', () => {
    const pictured = withPictureAlt(withInfoPicture(info, picture), 'A map', 'en');
    expect(pictured).toMatchObject({ picture: { ...picture, alt: { en: 'A map' } } });
    expect(withInfoPicture(pictured, picture)).toEqual(pictured);
    expect(withInfoPicture(pictured, { ...picture, id: 'c'.repeat(64) })).toMatchObject({
      picture: { alt: {} },
    });
    expect(withInfoPicture(pictured, null)).toEqual(info);
  });

  it('drops a language whose description is emptied, and changes no other kind', () => {
    const pictured = withPictureAlt(withInfoPicture(info, picture), 'Eine Karte', 'de');
    expect(withPictureAlt(pictured, '', 'de')).toMatchObject({ picture: { alt: {} } });
    const single = newQuestion('single', 'who', 'Who?');
    expect(withInfoPicture(single, picture)).toBe(single);
    expect(withPictureAlt(single, 'A map', 'en')).toBe(single);
  });
});

describe('a number question’s ranges in a flow', () => {
  const flows = {
    version: 'v1',
    flows: { quiz: ['q_age', 'q_school', 'signup', 'checkout_v3_tr'] },
    branches: {
      quiz: {
        q_age: {
          branches: [
            { when: { test: 'equals' as const, key: 'who', value: 'partner' }, next: 'signup' },
          ],
        },
      },
    },
  } as Parameters<typeof rangeTargets>[0];
  const target = { flow: 'quiz', id: 'q_age', key: 'age' };

  it('writes its ranges first, in order, and keeps the rules written by hand after them', () => {
    const ranged = withRangeTargets(flows, target, [
      { min: 0, max: 5, next: 'signup' },
      { min: 6, max: 17, next: 'q_school' },
    ]);
    expect(ranged.branches?.quiz?.q_age?.branches).toEqual([
      { when: { test: 'between', key: 'age', min: 0, max: 5 }, next: 'signup' },
      { when: { test: 'between', key: 'age', min: 6, max: 17 }, next: 'q_school' },
      { when: { test: 'equals', key: 'who', value: 'partner' }, next: 'signup' },
    ]);
    expect(rangeTargets(ranged, 'quiz', 'q_age', 'age')).toEqual([
      { min: 0, max: 5, next: 'signup' },
      { min: 6, max: 17, next: 'q_school' },
    ]);
  });

  it('takes the question out of the branches once nothing is left of them', () => {
    const alone = { ...flows, branches: undefined };
    const ranged = withRangeTargets(alone, target, [{ min: 0, max: 5, next: 'signup' }]);
    expect(withRangeTargets(ranged, target, [])).not.toHaveProperty('branches');
  });
});
