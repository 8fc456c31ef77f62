import { describe, expect, it } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import { parseExperiments } from '../../../shared/config/experiments';
import { parseRouting } from '../../../shared/config/routing';
import { answerAudienceIssues } from '../../../worker/quiz/check';
import { visitorFacts } from '../../../worker/routing/attributes';
import { compileAudience } from '../../../worker/routing/router';
import { NAME_QUESTION, WHO_QUESTION } from '../../fixtures/quiz-questions';

/**
 * A condition on a quiz answer (`answer:who in [child]`): an experiment's own audience may read
 * one, a route's may not; its key and values are held to the content's questions; it reads the
 * visit's kept choice, and nothing else of the answers.
 */

const experimentsWith = (condition: Record<string, unknown>) => ({
  version: 'e1',
  experiments: {
    'pw-child': {
      name: 'Paywall for parents',
      status: 'running',
      layer: 'paywall',
      audience: { groups: [[condition]] },
      coverage: 1,
      seed: 'pw-child',
      control: 'a',
      variants: { a: { weight: 1, change: {} }, b: { weight: 1, change: {} } },
    },
  },
});

const ON_CHILD = { attribute: 'answer:who', operator: 'in', values: ['child'] };

describe('a condition on an answer', () => {
  it('is an experiment’s own audience’s to read', () => {
    expect(parseExperiments(experimentsWith(ON_CHILD)).ok).toBe(true);
  });

  it('is refused in a route’s audience, which is chosen before any answer', () => {
    const parsed = parseRouting({
      version: 1,
      audiences: { parents: { groups: [[ON_CHILD]] } },
      routes: [
        { id: 'parents', audience: 'parents', flow: 'default' },
        { id: 'default', flow: 'default' },
      ],
    });
    expect(parsed).toMatchObject({
      ok: false,
      issues: [
        {
          path: 'audiences.parents.groups.0.0.attribute',
          message: expect.stringContaining("belongs in an experiment's own audience"),
        },
      ],
    });
  });

  it('compares by membership only, and names choices’ values', () => {
    const parsed = parseExperiments(
      experimentsWith({ attribute: 'answer:who', operator: 'contains', values: ['Child', 3] }),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues?.map((issue) => issue.path)).toEqual([
      'experiments.pw-child.audience.groups.0.0.operator',
      'experiments.pw-child.audience.groups.0.0.values.0',
      'experiments.pw-child.audience.groups.0.0.values.1',
    ]);
  });
});

describe('an experiment’s answer conditions against the content', () => {
  const content: ContentDocument = {
    screens: {},
    questions: { q_who: WHO_QUESTION, q_name: NAME_QUESTION },
  };
  const issuesOf = (condition: Record<string, unknown>) => {
    const parsed = parseExperiments(experimentsWith(condition));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return answerAudienceIssues(parsed.value, content);
  };

  it('takes a choice question’s key and its choices', () => {
    expect(issuesOf({ ...ON_CHILD, values: ['child', 'partner'] })).toEqual([]);
  });

  it('refuses a key no choice question asks, a text’s among them, and a value none offers', () => {
    const at = 'experiments.experiments.pw-child.audience.groups.0.0';
    expect(issuesOf({ ...ON_CHILD, attribute: 'answer:age' })).toEqual([
      { path: `${at}.attribute`, message: expect.stringContaining('"age"') },
    ]);
    expect(issuesOf({ ...ON_CHILD, attribute: 'answer:name', values: ['anna'] })).toEqual([
      { path: `${at}.attribute`, message: expect.stringContaining('"name"') },
    ]);
    expect(issuesOf({ ...ON_CHILD, values: ['child', 'stranger'] })).toEqual([
      { path: `${at}.values.1`, message: expect.stringContaining('"stranger"') },
    ]);
  });
});

describe('what a condition on an answer reads', () => {
  const facts = (answers?: Record<string, string | number | string[]>) =>
    visitorFacts({
      firstTouch: {
        source: 'direct',
        utm: {},
        entry: null,
        country: 'US',
        began_at: 0,
      } as never,
      language: 'en',
      userAgent: undefined,
      platformHint: undefined,
      inApp: null,
      returning: false,
      timeZone: null,
      now: 0,
      ...(answers ? { answers } : {}),
    });
  const inChild = compileAudience([
    [{ attribute: 'answer:who', operator: 'in', values: ['child'] }],
  ]);
  const notChild = compileAudience([
    [{ attribute: 'answer:who', operator: 'not_in', values: ['child'] }],
  ]);

  it('is the kept choice: unanswered is in no list, and not in every one', () => {
    expect(inChild(facts({ who: 'child' }))).toBe(true);
    expect(inChild(facts({ who: 'partner' }))).toBe(false);
    expect(inChild(facts())).toBe(false);
    expect(notChild(facts())).toBe(true);
    expect(notChild(facts({ who: 'child' }))).toBe(false);
  });

  it('never reads several choices or a number as one', () => {
    expect(inChild(facts({ who: ['child', 'partner'] }))).toBe(false);
    expect(inChild(facts({ who: 3 }))).toBe(false);
  });
});
