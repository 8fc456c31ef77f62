import { expect } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { consoleFetch } from './console-steps';
import type { BrowserSession } from './harness';

/**
 * The quiz's question screens the screen walk opens (screen-walk.ts), one of each kind a
 * question screen draws without the picture library, written in the walk's languages (English,
 * Arabic right to left, Russian's longer words) as a marketer would write them: published as the
 * content's questions before the walk, each at its own path.
 */

const texts = (en: string, ar: string, ru: string) => ({ en, ar, ru });

const choices = [
  { value: 'child', label: texts('My child', 'طفلي', 'Мой ребёнок') },
  { value: 'partner', label: texts('My partner', 'شريكي', 'Мой партнёр') },
  {
    value: 'parents',
    label: texts('My elderly parents', 'والداي المسنّان', 'Мои пожилые родители'),
  },
];

const WALK_QUESTIONS = {
  walk_single: {
    kind: 'single',
    key: 'who',
    title: texts('Who do you want to keep safe?', 'من تريد أن تحميه؟', 'Кого вы хотите защитить?'),
    subtitle: texts('Pick one.', 'اختر واحدًا.', 'Выберите один вариант.'),
    choices,
  },
  walk_multiple: {
    kind: 'multiple',
    key: 'worry',
    title: texts(
      'What worries you most?',
      'ما الذي يقلقك أكثر؟',
      'Что беспокоит вас больше всего?',
    ),
    choices,
    most: 2,
  },
  walk_number: {
    kind: 'number',
    key: 'age',
    title: texts('How old is your child?', 'كم عمر طفلك؟', 'Сколько лет вашему ребёнку?'),
    min: 1,
    max: 18,
    unit: texts('years', 'سنوات', 'лет'),
  },
  walk_date: {
    kind: 'date',
    key: 'since',
    title: texts('Since when?', 'منذ متى؟', 'С какого времени?'),
    earliest: '2000-01-01',
  },
  walk_text: {
    kind: 'text',
    key: 'name',
    title: texts('What is their name?', 'ما اسمه؟', 'Как его зовут?'),
    maxLength: 40,
  },
  walk_info: {
    kind: 'info',
    title: texts(
      'Families like yours check in twice a day',
      'العائلات مثل عائلتك تتواصل مرتين يوميًا',
      'Семьи вроде вашей отмечаются дважды в день',
    ),
    subtitle: texts('Your plan is almost ready.', 'خطتك جاهزة تقريبًا.', 'Ваш план почти готов.'),
  },
  walk_result: {
    kind: 'result',
    title: texts('Your plan', 'خطتك', 'Ваш план'),
    lines: [
      {
        text: texts(
          'School-run alerts when your child arrives and leaves',
          'تنبيهات عند وصول طفلك إلى المدرسة ومغادرته',
          'Оповещения, когда ребёнок приходит в школу и уходит из неё',
        ),
      },
      {
        text: texts('Your family on one map', 'عائلتك على خريطة واحدة', 'Вся семья на одной карте'),
      },
    ],
  },
  walk_building: {
    kind: 'building',
    title: texts('Building your plan', 'نعدّ خطتك', 'Составляем ваш план'),
    seconds: 3,
  },
} as const;

/** The walk's question screens, by the path each is opened at. */
export const WALK_QUESTION_IDS = Object.keys(WALK_QUESTIONS);

/** Publishes the walk's questions as the session's worker's content, through the console. */
export async function publishWalkQuestions(session: BrowserSession): Promise<void> {
  const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  const document = structuredClone(state.live) as unknown as { content: Record<string, unknown> };
  document.content = { ...document.content, questions: WALK_QUESTIONS };
  const published = await consoleFetch<{ ok: boolean }>(session, CONSOLE_API.publish, {
    base: state.head?.seq ?? null,
    document,
    note: 'the walk’s questions',
  });
  expect(published.ok).toBe(true);
}
