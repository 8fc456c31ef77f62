import { describe, expect, it } from 'vitest';
import { audienceText, groupText } from '../../../console/kit/audience-text';
import type { Condition } from '../../../shared/config/routing';

/**
 * The console's sentence for an audience (console/kit/audience-text.ts), as the traffic map shows
 * it.
 */

const source = (...values: string[]): Condition => ({
  attribute: 'source',
  operator: 'in',
  values,
});
const country = (...values: string[]): Condition => ({
  attribute: 'country',
  operator: 'in',
  values,
});

describe('an audience as a sentence', () => {
  it.each<[string, Condition[], string]>([
    [
      'one ad network in some countries',
      [source('tiktok'), country('DE', 'AT', 'CH')],
      'TikTok ads in DE, AT, CH',
    ],
    ['two ad networks', [source('meta', 'google')], 'Meta or Google ads'],
    [
      'sources that are not all ads',
      [source('organic', 'tiktok', 'direct')],
      'Visitors from search engines, TikTok ads or direct visits',
    ],
    [
      'countries left out',
      [{ attribute: 'country', operator: 'not_in', values: ['US'] }],
      'Visitors outside US',
    ],
    [
      'a source left out',
      [{ attribute: 'source', operator: 'not_in', values: ['meta'] }],
      'Visitors not from Meta ads',
    ],
    [
      'new visitors on a platform',
      [
        { attribute: 'visitor', operator: 'in', values: ['new'] },
        { attribute: 'platform', operator: 'in', values: ['ios', 'android'] },
      ],
      'New visitors on iOS or Android',
    ],
    [
      'a page language',
      [{ attribute: 'language', operator: 'in', values: ['de', 'fr'] }],
      'Visitors with the page in German or French',
    ],
    [
      'a browser left out',
      [{ attribute: 'browser', operator: 'not_in', values: ['safari'] }],
      'Visitors not in Safari',
    ],
    [
      'an in-app browser',
      [source('tiktok'), { attribute: 'in_app', operator: 'in', values: ['tiktok'] }],
      'TikTok ads in the TikTok in-app browser',
    ],
    [
      'no in-app browser',
      [{ attribute: 'in_app', operator: 'in', values: ['none'] }],
      'Visitors in no in-app browser',
    ],
    [
      'hours as ranges',
      [{ attribute: 'hour', operator: 'in', values: [22, 23, 0, 1, 12] }],
      'Visitors at hours 0–1, 12, 22–23 (their time)',
    ],
    [
      'weekends',
      [{ attribute: 'weekday', operator: 'in', values: ['sat', 'sun'] }],
      'Visitors on Sat, Sun',
    ],
    [
      'the first day of a visit',
      [{ attribute: 'visit_days', operator: 'in', values: [0] }],
      'Visitors on the day their visit began',
    ],
    [
      'days after the visit began',
      [{ attribute: 'visit_days', operator: 'in', values: [3, 7] }],
      'Visitors 3 or 7 days after their visit began',
    ],
    [
      'a campaign text by part',
      [source('meta'), { attribute: 'utm_campaign', operator: 'contains', values: ['bf'] }],
      'Meta ads with utm_campaign containing “bf”',
    ],
    [
      'a campaign text by its start',
      [{ attribute: 'utm_content', operator: 'starts_with', values: ['video', 'reel'] }],
      'Visitors with utm_content starting with “video” or “reel”',
    ],
    [
      'a campaign text left out',
      [{ attribute: 'utm_medium', operator: 'not_in', values: ['email'] }],
      'Visitors with utm_medium other than “email”',
    ],
    [
      'an entry link',
      [{ attribute: 'entry', operator: 'equals', values: ['bf24'] }],
      'Visitors from the link ?r=bf24',
    ],
    [
      'TikTok ads with its click id',
      [source('tiktok'), { attribute: 'click_id', operator: 'in', values: ['tiktok'] }],
      'TikTok ads with a TikTok click id',
    ],
    [
      'any ad click id',
      [{ attribute: 'click_id', operator: 'not_in', values: ['none'] }, country('DE')],
      'Visitors with an ad click id in DE',
    ],
    [
      'no click id',
      [{ attribute: 'click_id', operator: 'in', values: ['none'] }],
      'Visitors without an ad click id',
    ],
    [
      'a click id or none',
      [{ attribute: 'click_id', operator: 'in', values: ['meta', 'google', 'none'] }],
      'Visitors with a Meta or Google click id or none',
    ],
    [
      'a network left out',
      [{ attribute: 'click_id', operator: 'not_in', values: ['tiktok'] }],
      'Visitors without a TikTok click id',
    ],
    [
      'a network left out, and none',
      [{ attribute: 'click_id', operator: 'not_in', values: ['tiktok', 'none'] }],
      'Visitors without a TikTok click id (with another network’s)',
    ],
    [
      'an entry link by part',
      [{ attribute: 'entry', operator: 'contains', values: ['bf'] }],
      'Visitors with the entry link containing “bf”',
    ],
  ])('%s', (_name, group, sentence) => {
    expect(groupText(group)).toBe(sentence);
  });

  it('joins groups, any of which takes a visitor, with "or"', () => {
    expect(
      audienceText({
        groups: [
          [source('tiktok'), country('DE')],
          [source('meta'), country('FR')],
        ],
      }),
    ).toBe('TikTok ads in DE; or Meta ads in FR');
  });

  it('says so when an audience has no condition yet', () => {
    expect(audienceText({ groups: [] })).toBe('Nobody (no conditions yet)');
  });
});

describe('an experiment’s condition on a quiz answer as a sentence', () => {
  it('says the question’s key and the choices, given or not', () => {
    expect(
      groupText([
        source('tiktok'),
        { attribute: 'answer:who', operator: 'in', values: ['child', 'partner'] },
      ]),
    ).toBe('TikTok ads who answered “who” child or partner');
    expect(groupText([{ attribute: 'answer:who', operator: 'not_in', values: ['child'] }])).toBe(
      'Visitors who did not answer “who” child',
    );
  });
});
