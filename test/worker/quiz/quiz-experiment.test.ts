import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import {
  aBrowser,
  exposuresOf,
  putExperiments,
  startEachTestAfresh,
} from '../experiments/experiment-fixtures';
import { freshApp, putConfig } from '../fetch-app';

/**
 * A quiz flow tested against the phone-first landing: a landing test whose variant changes the
 * flow to the quiz's. A new visitor drawn into the quiz arm opens on its first question and is exposed there; one
 * drawn into the control opens on the landing, exposed too: both arms counted from their first
 * screen, where they differ. Results per arm are the experiments' own (test/worker/experiments/).
 */

startEachTestAfresh();
beforeEach(() =>
  putConfig('split', {
    version: 'one',
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  }),
);

const QUIZ_FLOW = ['q_who', 'signup', 'checkout_v3_tr', 'upsell_an_private', 'success'];

/** The flow test, with all the weight on `drawn`: every new visitor gets that arm. */
function quizTest(drawn: 'control' | 'quiz'): ExperimentDocument {
  return {
    name: 'Quiz against the landing',
    status: 'running',
    layer: 'landing',
    audience: {},
    coverage: 1,
    seed: 'fl-quiz',
    phase: 1,
    control: 'control',
    variants: {
      control: { weight: drawn === 'control' ? 1 : 0, change: {} },
      quiz: { weight: drawn === 'quiz' ? 1 : 0, change: { flow: 'quiz' } },
    },
  };
}

async function publishQuiz() {
  await putConfig('content', {
    screens: {},
    questions: {
      q_who: {
        kind: 'single',
        key: 'who',
        title: { en: 'Who do you want to keep safe?' },
        choices: [
          { value: 'child', label: { en: 'your child' } },
          { value: 'partner', label: { en: 'your partner' } },
        ],
      },
    },
  });
  await putConfig('flows', {
    ...DEFAULT_FLOWS,
    flows: { ...DEFAULT_FLOWS.flows, quiz: QUIZ_FLOW },
  });
}

describe('a quiz flow as an experiment’s variant', () => {
  it('opens its arm on the first question, exposed there; the control on the landing', async () => {
    await publishQuiz();
    await putExperiments({ 'fl-quiz': quizTest('quiz') });
    const quiz = aBrowser(freshApp());
    const first = await quiz.get('/?utm_source=tiktok');
    expect(first.status).toBe(200);
    expect(first.body).toContain('Who do you want to keep safe?</h1>');
    expect(await exposuresOf(quiz.visitorId())).toEqual(['fl-quiz=quiz']);

    await putExperiments({ 'fl-quiz': quizTest('control') });
    const control = aBrowser(freshApp());
    const landing = await control.get('/?utm_source=tiktok');
    expect(landing.body).not.toContain('quiz__title');
    expect(landing.body).toContain('id="screen-title"');
    expect(await exposuresOf(control.visitorId())).toEqual(['fl-quiz=control']);
  });
});
