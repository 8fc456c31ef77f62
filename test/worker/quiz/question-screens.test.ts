import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import type { FlowsDraft } from '../../../shared/config/flows';
import type { ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import type { PictureUploadAnswer } from '../../../shared/console-api/pictures';
import { isPlanId, planById } from '../../../shared/plans/catalogue';
import { pngOf } from '../../fixtures/png';
import { freshApp, ORIGIN, ownAddress, setCookies } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { mainText } from '../page-html';
import { upload } from '../pictures/picture-fixtures';

/**
 * A quiz published through the console against the real KV, walked as a browser without script
 * walks it: each question at its own path, its answer posted there and checked against the
 * question, kept in the visit's signed cookie (shown again on a reload), and the next screen
 * chosen by the flow's branches. A refused answer is said on the question and keeps nothing; so
 * is a post to a question outside the visitor's flow, and one from another site.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

const consoleApp = freshApp();
const JSON_POST = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

async function publish(content: ContentDocument, flows: FlowsDraft): Promise<Response> {
  const state = (await (await consoleApp(CONSOLE_API.state)).json()) as ConsoleState;
  return consoleApp(CONSOLE_API.publish, {
    method: 'POST',
    headers: JSON_POST,
    body: JSON.stringify({
      base: state.head?.seq ?? null,
      document: { ...state.live, content, flows },
    }),
  });
}

const en = (text: string) => ({ en: text });

const QUESTIONS = {
  q_who: {
    kind: 'single',
    key: 'who',
    title: { en: 'Who do you want to keep safe?', de: 'Wen möchtest du schützen?' },
    choices: [
      { value: 'child', label: { en: 'My child', de: 'Mein Kind' } },
      { value: 'partner', label: en('My partner'), plan: 'monthly' },
    ],
  },
  q_age: { kind: 'number', key: 'age', title: en('How old is your child?'), min: 1, max: 18 },
  q_worry: {
    kind: 'multiple',
    key: 'worry',
    title: en('What worries you most?'),
    choices: [
      { value: 'roads', label: en('Busy roads') },
      { value: 'strangers', label: en('Strangers') },
      { value: 'night', label: en('Late nights') },
    ],
  },
  q_name: { kind: 'text', key: 'name', title: en('What is your child’s name?'), maxLength: 200 },
  q_plan: {
    kind: 'result',
    title: en('Your plan'),
    lines: [
      {
        when: { test: 'equals', key: 'who', value: 'child' },
        text: en('School-run alerts for {{answer.who}}'),
      },
      { when: { test: 'between', key: 'age', min: 1, max: 12 }, text: en('A check-in at bedtime') },
      {
        when: { test: 'equals', key: 'worry', value: 'night' },
        text: en('Late-night arrival alerts'),
      },
      { text: en('Your family on one map') },
    ],
  },
  q_spare: {
    kind: 'single',
    key: 'spare',
    title: en('A question no flow asks'),
    choices: [
      { value: 'a', label: en('A') },
      { value: 'b', label: en('B') },
    ],
  },
} as const;

/** The sign-up's title says who the visitor keeps safe, or a fallback for one who did not say. */
const SAYS_WHO = {
  copy: { en: { 'signup.title': 'Sign up to keep {{answer.who|your family}} safe' } },
};

const QUIZ: ContentDocument = {
  screens: { signup: SAYS_WHO },
  questions: QUESTIONS,
} as unknown as ContentDocument;

const QUIZ_FLOW = [
  'q_who',
  'q_age',
  'q_worry',
  'q_name',
  'q_plan',
  'signup',
  'checkout_v3_tr',
  'success',
];

const FLOWS: FlowsDraft = {
  version: 'quiz',
  flows: { default: QUIZ_FLOW },
  branches: {
    default: {
      q_who: {
        branches: [{ when: { test: 'equals', key: 'who', value: 'child' }, next: 'q_age' }],
        otherwise: 'q_worry',
      },
    },
  },
};

/** A visitor without script: their cookies kept from answer to answer, posting from our page. */
function visitor() {
  const app = freshApp();
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (response: Response) => {
    for (const [name, value] of setCookies(response)) jar.set(name, value);
    return response;
  };
  return {
    jar,
    /** The page's island calling the worker's /api, as the browser sends it. */
    call: async (path: string, body: unknown) =>
      keep(
        await app(path, {
          method: 'POST',
          headers: {
            cookie: cookie(),
            'content-type': 'application/json',
            'sec-fetch-site': 'same-origin',
            'cf-connecting-ip': ownAddress(),
          },
          body: JSON.stringify(body),
        }),
      ),
    open: async (path: string) => keep(await app(path, { headers: { cookie: cookie() } })),
    answer: async (path: string, body: URLSearchParams, origin = ORIGIN) =>
      keep(
        await app(path, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            origin,
            'sec-fetch-site': origin === ORIGIN ? 'same-origin' : 'cross-site',
            cookie: cookie(),
          },
          body,
        }),
      ),
  };
}

const answer = (...values: string[]) =>
  new URLSearchParams(values.map((value) => ['answer', value]));

describe('a quiz’s question screens', () => {
  it('ask at their own paths, keep each answer and branch on it', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const one = visitor();
    const first = await one.open('/?gclid=7');
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('<title>Who do you want to keep safe?');
    expect(html).toContain('action="/q_who?gclid=7"');
    expect(html).toContain('<h1 id="question-title" class="quiz__title" tabindex="-1">');
    // A flow that opens with a question counts from it.
    expect(html).toContain('aria-valuetext="Step 1 of 8"');

    const child = await one.answer('/q_who?gclid=7', answer('child'));
    expect(child.status).toBe(303);
    expect(child.headers.get('location')).toBe('/q_age?gclid=7');
    expect(one.jar.has('gf_answers')).toBe(true);

    // Back, or a reload: the kept answer shows as chosen.
    const again = await (await one.open('/q_who')).text();
    expect(again).toMatch(/aria-pressed="true"[^>]*><span class="quiz__label">My child/);
    expect(again.match(/aria-pressed="true"/g)).toHaveLength(1);

    const age = await one.answer('/q_age', answer('9'));
    expect(age.headers.get('location')).toBe('/q_worry');
    expect(await (await one.open('/q_age')).text()).toContain('value="9"');

    const worries = await one.answer('/q_worry', answer('roads', 'night'));
    expect(worries.headers.get('location')).toBe('/q_name');
    // The longest text a question takes, in four-byte characters, fits the form's limit.
    const name = await one.answer('/q_name', answer('🦊'.repeat(200)));
    expect(name.headers.get('location')).toBe('/q_plan');
    // Every event of the pages after carries the choices, never the text typed.
    const signup = await (await one.open('/signup')).text();
    expect(signup).toContain(
      '"answers":{"quiz_who":"child","quiz_age":9,"quiz_worry":"roads,night"}',
    );
    expect(signup).not.toContain('🦊');
    const kept = await (await one.open('/q_worry')).text();
    expect(kept.match(/checked=""/g)).toHaveLength(2);

    // Another answer to the first question takes the other branch, past the child's age.
    const partner = visitor();
    const branched = await partner.answer('/q_who', answer('partner'));
    expect(branched.headers.get('location')).toBe('/q_worry');
  });

  it('build the visitor’s plan from their answers on a result screen', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const lines = async (html: string) =>
      [...html.matchAll(/<li class="quiz__result-line">([^<]*)<\/li>/g)].map((match) => match[1]);
    const child = visitor();
    await child.answer('/q_who', answer('child'));
    await child.answer('/q_age', answer('9'));
    await child.answer('/q_worry', answer('roads', 'night'));
    expect(await lines(await (await child.open('/q_plan')).text())).toEqual([
      'School-run alerts for My child',
      'A check-in at bedtime',
      'Late-night arrival alerts',
      'Your family on one map',
    ]);
    const partner = visitor();
    await partner.answer('/q_who', answer('partner'));
    expect(await lines(await (await partner.open('/q_plan')).text())).toEqual([
      'Your family on one map',
    ]);
    // Continue goes on in the flow, whatever the plan says.
    const on = await partner.answer('/q_plan', new URLSearchParams());
    expect(on.headers.get('location')).toBe('/signup');
  });

  it('say a typed answer in later copy as words only: no markup, no placeholder of i18next', async () => {
    const saysName = {
      ...QUIZ,
      screens: { signup: { copy: { en: { 'signup.title': 'A plan for {{answer.name|you}}' } } } },
    } as ContentDocument;
    expect((await publish(saysName, FLOWS)).status).toBe(200);
    const one = visitor();
    const typed = '<img src=x onerror=alert(1)>{{brand}} $t(page_title)';
    expect((await one.answer('/q_name', answer(typed))).status).toBe(303);
    const html = await (await one.open('/signup')).text();
    const heading = /<h1[^>]*>([^<]*(?:&lt;[^<]*)*)</.exec(html.slice(html.indexOf('<main')))?.[1];
    expect(heading).toBe('A plan for &lt;img src=x onerror=alert(1)&gt;brand page_title)');
    expect(html).not.toContain('<img src=x');
  });

  it('say the visitor’s answer in later copy, a fallback where none was given', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const said = (html: string) => /<h1[^>]*>([^<]*)</.exec(html.slice(html.indexOf('<main')))?.[1];
    const child = visitor();
    await child.answer('/q_who', answer('child'));
    expect(said(await (await child.open('/signup')).text())).toBe('Sign up to keep My child safe');
    const partner = visitor();
    await partner.answer('/q_who', answer('partner'));
    expect(said(await (await partner.open('/signup')).text())).toBe(
      'Sign up to keep My partner safe',
    );
    // Asked again, the page is the child's visitor's still: no visitor is served another's.
    expect(said(await (await child.open('/signup')).text())).toBe('Sign up to keep My child safe');
    expect(said(await (await visitor().open('/signup')).text())).toBe(
      'Sign up to keep your family safe',
    );
  });

  it('refuses an answer the question does not take, says why and keeps nothing', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const one = visitor();
    await one.open('/');
    const refusals: [string, URLSearchParams, string][] = [
      ['/q_who', answer('friend'), 'That answer is not one of the choices. Choose one of them.'],
      ['/q_who', answer('child', 'partner'), 'Choose at most 1.'],
      ['/q_who', new URLSearchParams(), 'Choose an answer to go on.'],
      ['/q_age', answer('19'), 'Enter a number from 1 to 18.'],
      ['/q_age', answer('9.5'), 'Enter a whole number, such as 12.'],
      [
        '/q_worry',
        answer('roads', 'pets'),
        'That answer is not one of the choices. Choose one of them.',
      ],
    ];
    for (const [path, body, said] of refusals) {
      const refused = await one.answer(path, body);
      expect(refused.status, `${path} ${body}`).toBe(400);
      const page = await refused.text();
      expect(mainText(page)).toContain(said);
      expect(page).toContain('aria-describedby="question-problem"');
      expect(setCookies(refused).has('gf_answers')).toBe(false);
    }
    expect(one.jar.has('gf_answers')).toBe(false);
  });

  it('refuses a question outside the visitor’s flow, and a post from another site', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const one = visitor();
    await one.open('/');
    const stray = await one.answer('/q_spare', answer('a'));
    expect(stray.status).toBe(409);
    expect(mainText(await stray.text())).toContain(
      'This question is not part of your quiz. Start again from the first page.',
    );
    const forged = await one.answer('/q_who', answer('child'), 'https://elsewhere.test');
    expect(forged.status).toBe(403);
    expect(one.jar.has('gf_answers')).toBe(false);
    // A cookie the worker did not sign is no answer: the question shows none chosen.
    one.jar.set('gf_answers', encodeURIComponent('{"who":"child"}'));
    expect(await (await one.open('/q_who')).text()).not.toContain('aria-pressed="true"');
  });
});

describe('a quiz’s answers at sign-up', () => {
  beforeEach(freshStorage);

  /** The answers the product API's account holds for `email` (the embedded portal's row). */
  async function heldAnswers(email: string): Promise<unknown> {
    const row = await env.PORTAL_DB.prepare('SELECT quiz_answers FROM users WHERE email = ?')
      .bind(email)
      .first<{ quiz_answers: string | null }>();
    expect(row).not.toBeNull();
    return row?.quiz_answers ? JSON.parse(row.quiz_answers) : null;
  }

  it('reach the product API with the sign-up, with or without script, from the visit alone', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const one = visitor();
    await one.answer('/q_who', answer('child'));
    await one.answer('/q_age', answer('9'));
    await one.answer('/q_worry', answer('night', 'roads'));
    await one.answer('/q_name', answer('Mia'));
    const signedUp = await one.answer(
      '/signup',
      new URLSearchParams({ email: 'quiz@example.test' }),
    );
    expect(signedUp.status).toBe(303);
    expect(await heldAnswers('quiz@example.test')).toEqual({
      who: 'child',
      age: 9,
      worry: ['roads', 'night'],
      name: 'Mia',
    });

    // The island's call: answers the page sends are not the visit's, and are dropped.
    const two = visitor();
    await two.answer('/q_who', answer('partner'));
    const called = await two.call('/api/signup', {
      registration_source: 'email',
      email: 'island@example.test',
      quiz_answers: { who: 'child', age: 99 },
    });
    expect(called.status).toBe(200);
    expect(await heldAnswers('island@example.test')).toEqual({ who: 'partner' });
    const none = await visitor().call('/api/signup', {
      registration_source: 'email',
      email: 'none@example.test',
      quiz_answers: { who: 'child' },
    });
    expect(none.status).toBe(200);
    expect(await heldAnswers('none@example.test')).toBeNull();
  });
});

describe('a quiz’s answer on the checkout', () => {
  beforeEach(freshStorage);

  /** The plan the checkout's picker ticks first, by its family. */
  const ticked = (html: string) => {
    const id = /&quot;defaultId&quot;:&quot;([a-z0-9_]+)&quot;/.exec(html)?.[1] ?? '';
    return isPlanId(id) ? planById(id).family : null;
  };

  it('preselects the plan a choice names, among the plans offered, and none for the others', async () => {
    expect((await publish(QUIZ, FLOWS)).status).toBe(200);
    const partner = visitor();
    await partner.answer('/q_who', answer('partner'));
    await partner.answer('/signup', new URLSearchParams({ email: 'partner@example.test' }));
    expect(ticked(await (await partner.open('/checkout_v3_tr')).text())).toBe('monthly');
    const child = visitor();
    await child.answer('/q_who', answer('child'));
    await child.answer('/signup', new URLSearchParams({ email: 'child@example.test' }));
    expect(ticked(await (await child.open('/checkout_v3_tr')).text())).toBe('monthly_7d_intro');
  });
});

describe('a picture choice', () => {
  it('takes the library’s pictures, named by their labels, and draws them as decoration', async () => {
    const sent = await upload(consoleApp, await pngOf(320, 240));
    const { picture } = (await sent.json()) as PictureUploadAnswer;
    const pictured = (alt: Record<string, string>) => ({
      id: picture.id,
      width: picture.width,
      height: picture.height,
      alt,
    });
    const look = {
      kind: 'pictures',
      key: 'look',
      title: en('Which phone do they use?'),
      choices: [
        { value: 'iphone', label: en('An iPhone'), picture: pictured({}) },
        { value: 'android', label: en('An Android phone'), picture: pictured({}) },
      ],
    };
    const content = {
      ...QUIZ,
      questions: { ...QUESTIONS, q_look: look },
    } as unknown as ContentDocument;
    const flows = { ...FLOWS, flows: { default: ['q_look', ...QUIZ_FLOW] } };
    expect((await publish(content, flows)).status).toBe(200);
    const html = await (await visitor().open('/q_look')).text();
    expect(html.match(/<img [^>]*alt=""/g)).toHaveLength(2);
    expect(html).toContain('<span class="quiz__label">An iPhone</span>');
    // A picture the library does not hold is refused at its place.
    const stray = {
      ...look,
      choices: [
        look.choices[0],
        { ...look.choices[1], picture: { ...pictured({}), id: 'b'.repeat(64) } },
      ],
    };
    const refused = await publish(
      { ...content, questions: { ...QUESTIONS, q_look: stray } } as unknown as ContentDocument,
      flows,
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as InvalidAnswer).errors).toContainEqual({
      path: 'content.questions.q_look.choices.1.picture.id',
      message: 'names no picture in the library: upload it first',
    });
  });
});

describe('the quiz’s check', () => {
  async function refusals(content: unknown, flows: FlowsDraft) {
    const kvBefore = await env.FUNNEL_CONFIG.get('flows', 'text');
    const refused = await publish(content as ContentDocument, flows);
    expect(refused.status).toBe(400);
    expect(await env.FUNNEL_CONFIG.get('flows', 'text')).toBe(kvBefore);
    return ((await refused.json()) as InvalidAnswer).errors;
  }

  it('refuses a loop, an unreachable question and a flow with no way to the checkout', async () => {
    const loop: FlowsDraft = {
      ...FLOWS,
      branches: {
        default: {
          q_age: {
            branches: [{ when: { test: 'between', key: 'age', min: 1, max: 5 }, next: 'q_who' }],
          },
        },
      },
    };
    expect(await refusals(QUIZ, loop)).toEqual([
      {
        path: 'flows.branches.default.q_age.branches.0.next',
        message: '"q_who" comes before this question: a visitor could go round in a loop',
      },
    ]);
    const skipping: FlowsDraft = {
      ...FLOWS,
      branches: {
        default: {
          q_who: {
            branches: [{ when: { test: 'equals', key: 'who', value: 'child' }, next: 'q_worry' }],
            otherwise: 'q_worry',
          },
        },
      },
    };
    expect(await refusals(QUIZ, skipping)).toEqual([
      { path: 'flows.flows.default.1', message: 'no path reaches "q_age"' },
    ]);
    const noCheckout = {
      version: 'quiz',
      flows: { default: ['q_who', 'q_age', 'signup', 'success'] },
    };
    expect(await refusals(QUIZ, noCheckout)).toEqual([
      { path: 'flows.flows.default.0', message: 'no path from "q_who" reaches the checkout' },
      { path: 'flows.flows.default.1', message: 'no path from "q_age" reaches the checkout' },
      { path: 'flows.flows.default.2', message: 'no path from "signup" reaches the checkout' },
      { path: 'flows.flows.default.3', message: 'no path from "success" reaches the checkout' },
    ]);
  });

  it('refuses a result line on an answer no question before it asks', async () => {
    const early = {
      ...FLOWS,
      flows: { default: ['q_plan', ...QUIZ_FLOW.filter((ref) => ref !== 'q_plan')] },
    };
    const errors = await refusals(QUIZ, early as FlowsDraft);
    expect(errors).toContainEqual({
      path: 'content.questions.q_plan.lines.0.when.key',
      message: 'no question before it asks "who" in flow "default"',
    });
  });

  it('refuses copy that says an answer no question asks', async () => {
    const pet = {
      ...QUIZ,
      screens: { signup: { copy: { en: { 'signup.title': 'Keep {{answer.pet}} safe' } } } },
    };
    expect(await refusals(pet, FLOWS)).toEqual([
      {
        path: 'content.screens.signup.copy.en.signup.title',
        message: "{{answer.pet}} names no question's answer: use the key a question asks",
      },
    ]);
  });

  it('refuses a price typed in a choice, a name two screens share and a key asked twice', async () => {
    const priced = {
      ...QUIZ,
      questions: {
        ...QUESTIONS,
        q_who: {
          ...QUESTIONS.q_who,
          choices: [QUESTIONS.q_who.choices[0], { value: 'deal', label: en('Only $4.99 a week') }],
        },
      },
    };
    const [price] = await refusals(priced, FLOWS);
    expect(price?.path).toBe('content.questions.q_who.choices.1.label.en');
    const twice = {
      ...QUIZ,
      composed: {
        q_age: { slot: 'landing', from: 'one_pager' },
      },
      questions: { ...QUESTIONS, q_again: { ...QUESTIONS.q_spare, key: 'who' } },
    };
    const flows = {
      version: 'quiz',
      flows: { default: ['q_who', 'q_again', ...QUIZ_FLOW.slice(5)] },
    };
    expect(await refusals(twice, flows)).toEqual([
      {
        path: 'content.questions.q_age',
        message: 'is the name of a composed screen too: give the question a name of its own',
      },
      {
        path: 'flows.flows.default.1',
        message: 'asks "who", as "q_who" does before it: give each question of a flow its own key',
      },
    ]);
  });
});
