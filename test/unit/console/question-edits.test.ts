import { describe, expect, it } from 'vitest';
import {
  newQuestion,
  QUESTION_KINDS,
  withoutQuestion,
  withQuestion,
  withText,
} from '../../../console/quiz/question-edits';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import { question } from '../../../shared/quiz/question';

/**
 * The console's question edits (console/quiz/question-edits.ts): a new question of every kind is
 * one the content's schema takes as it is, so a marketer who makes one can publish it; an empty
 * line under the question goes, the other languages' words with it only when none is left.
 */

describe('the console’s question edits', () => {
  it('make a question of every kind that the content takes as it is', () => {
    for (const { kind } of QUESTION_KINDS) {
      const made = newQuestion(kind, 'who', 'Who do you want to keep safe?');
      const parsed = question.safeParse(made);
      expect(parsed.success ? [] : parsed.error.issues, kind).toEqual([]);
    }
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
