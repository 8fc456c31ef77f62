import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { ANSWER_SIGHTING } from '../../../worker/collector/seen-steps';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { AFTER_EXPOSURE_CAUTION } from '../../../worker/experiments/results/segment-results';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import { recordAnswers } from '../../../worker/experiments/store/record-outcomes';
import { WHO_QUESTION } from '../../fixtures/quiz-questions';
import { NOW } from '../collector/fixtures';
import {
  aBrowser,
  exposuresOf,
  funnel,
  PRICE_TEST,
  putExperiments,
  recordConfirmedVisitors,
  SEGMENTS,
  shardRows,
  startEachTestAfresh,
  stores,
} from '../experiments/experiment-fixtures';
import { freshApp, ORIGIN, putConfig } from '../fetch-app';

/**
 * A quiz flow tested against the phone-first landing: a landing test whose variant changes the
 * flow to the quiz's. A new visitor drawn into the quiz arm opens on its first question and is exposed there; one
 * drawn into the control opens on the landing, exposed too: both arms counted from their first
 * screen, where they differ. Results per arm are the experiments' own (test/worker/experiments/);
 * their segments by an answer are the worker's sightings of the choices it kept
 * (worker/experiments/store/answer-statements.ts).
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
    questions: { q_who: WHO_QUESTION },
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

const MINUTE = 60_000;

/** A clock a second on at each reading, as a visitor's pages and answers follow each other. */
function ticking(): () => number {
  let clock = NOW;
  return () => {
    clock += 1_000;
    return clock;
  };
}

/** A browser of `app` posting the quiz's form as the page does, script or none. */
function answering(app: ReturnType<typeof freshApp>) {
  const browser = aBrowser(app);
  return {
    browser,
    answer: (path: string, value: string) =>
      browser.request(path, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ answer: value }),
      }),
  };
}

interface AnswerCount {
  experiment: string;
  value: string;
  variant: string;
  after_exposure: number;
  exposed: number;
  purchased: number;
}

const answerCounts = () =>
  shardRows<AnswerCount>(
    `SELECT experiment, value, variant, after_exposure, exposed, purchased
     FROM xp_answer_segments WHERE exposed > 0 ORDER BY experiment, value`,
  );

describe('a quiz’s answers in the experiments’ numbers', () => {
  it('counts an exposed visitor under the choice the worker kept, once, moved when changed', async () => {
    await publishQuiz();
    await putExperiments({ 'fl-quiz': quizTest('quiz') });
    const { fetchApp, consume } = funnel(0.2, {}, ticking());
    const { browser, answer } = answering(fetchApp);
    await browser.get('/');
    expect(await exposuresOf(browser.visitorId())).toEqual(['fl-quiz=quiz']);

    expect((await answer('/q_who', 'child')).status).toBe(303);
    const seen = (await consume()).filter((m) => m.event.event_type === ANSWER_SIGHTING);
    expect(seen.map((m) => [m.source, m.only, m.event.event_properties])).toEqual([
      [
        'server',
        ['experiment'],
        expect.objectContaining({ answer_key: 'who', answer_value: 'child' }),
      ],
    ]);
    expect(await answerCounts()).toEqual([
      {
        experiment: 'fl-quiz',
        value: 'child',
        variant: 'quiz',
        after_exposure: 1,
        exposed: 1,
        purchased: 0,
      },
    ]);

    // A choice the question does not offer is refused, and nothing is queued.
    expect((await answer('/q_who', 'stranger')).status).toBe(400);
    // The same answer posted again and again: still one visitor.
    for (let i = 0; i < 5; i++) await answer('/q_who', 'child');
    // Back, and another choice: the visitor moves to it.
    await answer('/q_who', 'partner');
    const again = (await consume()).filter((m) => m.event.event_type === ANSWER_SIGHTING);
    expect(again.map((m) => m.event.event_properties.answer_value)).toEqual([
      'child',
      'child',
      'child',
      'child',
      'child',
      'partner',
    ]);
    expect(await answerCounts()).toEqual([
      expect.objectContaining({ value: 'partner', variant: 'quiz', exposed: 1 }),
    ]);
  });

  it('sends nothing for a visitor no experiment exposed, and keeps no row for them', async () => {
    await publishQuiz();
    await putConfig('flows', {
      ...DEFAULT_FLOWS,
      flows: { ...DEFAULT_FLOWS.flows, default: QUIZ_FLOW },
    });
    await putExperiments({});
    const { fetchApp, consume } = funnel();
    const { browser, answer } = answering(fetchApp);
    expect((await browser.get('/')).body).toContain('Who do you want to keep safe?</h1>');
    expect((await answer('/q_who', 'child')).status).toBe(303);
    const queued = await consume();
    expect(queued.filter((m) => m.event.event_type === ANSWER_SIGHTING)).toEqual([]);
    expect(await shardRows('SELECT * FROM xp_answers')).toEqual([]);
  });

  it('brings the answers given before a later exposure with it, as known at exposure', async () => {
    await publishQuiz();
    await putExperiments({
      'fl-quiz': quizTest('quiz'),
      'pw-price': {
        ...PRICE_TEST,
        variants: { ...PRICE_TEST.variants, current: { weight: 0, change: {} } },
      },
    });
    const { fetchApp, consume } = funnel(0.2, {}, ticking());
    const { browser, answer } = answering(fetchApp);
    await browser.get('/');
    expect((await answer('/q_who', 'partner')).status).toBe(303);
    await browser.get('/signup');
    await browser.get('/checkout_v3_tr');
    expect(await exposuresOf(browser.visitorId())).toEqual(['fl-quiz=quiz', 'pw-price=cheap']);
    await consume();
    expect(await answerCounts()).toEqual([
      expect.objectContaining({ experiment: 'fl-quiz', value: 'partner', after_exposure: 1 }),
      expect.objectContaining({ experiment: 'pw-price', value: 'partner', after_exposure: 0 }),
    ]);
  });
});

describe('an experiment whose audience reads an answer', () => {
  it('takes only the visitors who gave that choice, once they have given it', async () => {
    await publishQuiz();
    await putConfig('flows', {
      ...DEFAULT_FLOWS,
      flows: { ...DEFAULT_FLOWS.flows, default: QUIZ_FLOW },
    });
    await putExperiments({
      'pw-price': {
        ...PRICE_TEST,
        audience: { groups: [[{ attribute: 'answer:who', operator: 'in', values: ['child'] }]] },
        variants: { ...PRICE_TEST.variants, current: { weight: 0, change: {} } },
      },
    });
    const walk = async (choice: string) => {
      const { browser, answer } = answering(freshApp({ now: ticking() }));
      await browser.get('/');
      expect((await answer('/q_who', choice)).status).toBe(303);
      await browser.get('/signup');
      await browser.get('/checkout_v3_tr');
      return exposuresOf(browser.visitorId());
    };
    expect(await walk('child')).toEqual(['pw-price=cheap']);
    expect(await walk('partner')).toEqual([]);
  });
});

describe('a quiz test’s results', () => {
  const consoleApp = freshApp({ now: () => NOW + 10 * MINUTE });

  /** `count` visitors exposed to an arm, each answering `who` after exposure (or not). */
  async function arm(
    variant: 'control' | 'quiz',
    count: number,
    who: string | null,
    buyers: number,
  ) {
    const ids = Array.from({ length: count }, () => crypto.randomUUID());
    await recordConfirmedVisitors(
      stores,
      ids.map((visitorId) => ({
        visitorId,
        experiment: 'fl-quiz',
        phase: 1,
        variant,
        configVersion: 'v1',
        at: NOW,
        segments: SEGMENTS,
      })),
    );
    if (who !== null) {
      await recordAnswers(
        stores,
        ids.map((visitorId) => ({ visitorId, key: 'who', value: who, at: NOW + MINUTE })),
      );
    }
    await recordPurchases(
      stores,
      ids.slice(0, buyers).map((visitorId, index) => ({
        subscriptionId: `sub-${variant}-${who}-${index}`,
        visitorId,
        amountMinor: 999,
        currency: 'USD',
        at: NOW + 2 * MINUTE,
      })),
    );
  }

  it('show purchases per arm, and each arm’s purchases by answer, never a lift in them', async () => {
    await publishQuiz();
    await putExperiments({
      'fl-quiz': {
        ...quizTest('quiz'),
        variants: {
          control: { weight: 1, change: {} },
          quiz: { weight: 1, change: { flow: 'quiz' } },
        },
      },
    });
    await arm('control', 300, null, 30);
    await arm('quiz', 200, 'child', 40);
    await arm('quiz', 100, 'partner', 10);
    await arm('quiz', 20, null, 0);

    const response = await consoleApp(
      `${CONSOLE_EXPERIMENTS_PATH}/fl-quiz/results?segment=answer:who`,
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as ExperimentResultsAnswer;
    const purchases = (variant: string) =>
      answer.variants
        .find((arm) => arm.variant === variant)
        ?.metrics.find((metric) => metric.metric === 'purchase');
    expect(purchases('control')).toMatchObject({ mean: 30 / 300 });
    expect(purchases('quiz')).toMatchObject({ mean: 50 / 320 });

    const segment = answer.segment!;
    expect(segment).toMatchObject({
      dimension: 'answer:who',
      afterExposure: true,
      caution: AFTER_EXPOSURE_CAUTION,
    });
    const byLevel = Object.fromEntries(
      segment.levels.map((level) => [
        level.level,
        Object.fromEntries(
          level.variants.map((arm) => {
            const purchase = arm.metrics.find((metric) => metric.metric === 'purchase');
            return [
              arm.variant,
              { exposed: arm.exposed, purchase: purchase?.mean, lift: purchase?.relativeLift },
            ];
          }),
        ),
      ]),
    );
    expect(byLevel).toEqual({
      child: {
        control: { exposed: 0, purchase: 0, lift: null },
        quiz: { exposed: 200, purchase: 0.2, lift: null },
      },
      partner: {
        control: { exposed: 0, purchase: 0, lift: null },
        quiz: { exposed: 100, purchase: 0.1, lift: null },
      },
      unanswered: {
        control: { exposed: 300, purchase: 0.1, lift: null },
        quiz: { exposed: 20, purchase: 0, lift: null },
      },
    });
  });

  it('downloads a quiz segment as a CSV whose file name has no colon', async () => {
    await putExperiments({ 'fl-quiz': quizTest('quiz') });
    const response = await consoleApp(
      `${CONSOLE_EXPERIMENTS_PATH}/fl-quiz/results?segment=answer:who&format=csv`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="results-fl-quiz-phase-1-answer-who.csv"',
    );
    expect((await response.text()).split('\r\n')[0]).toContain('segment');
  });

  it('refuses a segment that is neither a dimension nor an answer’s key', async () => {
    await putExperiments({ 'fl-quiz': quizTest('quiz') });
    for (const segment of ['answer:', 'answer:Who', 'answer:who;drop', 'answers:who']) {
      const response = await consoleApp(
        `${CONSOLE_EXPERIMENTS_PATH}/fl-quiz/results?segment=${encodeURIComponent(segment)}`,
      );
      expect(response.status, segment).toBe(400);
    }
  });
});
