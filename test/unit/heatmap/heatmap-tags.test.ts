import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clarityProjectId,
  clarityScriptUrl,
  HEATMAP_TAG_MAX,
  type HeatmapFacts,
  heatmapExcluded,
  heatmapTags,
} from '../../../shared/analytics/heatmap';
import { SCREEN_IDS } from '../../../shared/screens';
import { heatmapPage } from '../../../worker/attribution/tracking-data';

const FACTS: HeatmapFacts = {
  screen: 'one_pager',
  variant: 'lp17',
  flow: 'lp17ch17pr5',
  route: 'tiktok-de',
  source: 'tiktok',
  configVersion: '42+7',
  experiments: [{ experiment: 'pw-price', variant: 'cheap' }],
};

describe('the project id', () => {
  it('is taken trimmed when it is letters and digits, else there is none', () => {
    expect(clarityProjectId(' abcde12345 ')).toBe('abcde12345');
    expect(clarityProjectId(undefined)).toBeNull();
    expect(clarityProjectId('')).toBeNull();
    expect(clarityProjectId('abc/../evil')).toBeNull();
    expect(clarityProjectId('abc?x=1')).toBeNull();
  });

  it('whatever the setting holds, the loader stays on www.clarity.ms/tag/', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (value) => {
        const id = clarityProjectId(value);
        if (id === null) return;
        expect(id).toBe(value.trim());
        const url = new URL(clarityScriptUrl(id));
        expect(url.origin).toBe('https://www.clarity.ms');
        expect(url.pathname).toBe(`/tag/${id}`);
        expect(url.search + url.hash).toBe('');
      }),
    );
  });
});

describe('where it never loads', () => {
  it('every checkout and paywall, where card fields are, and no other screen', () => {
    const excluded = SCREEN_IDS.filter(heatmapExcluded);
    expect(excluded).toEqual([
      'checkout_v3_tr',
      'checkout_h3_pp',
      'checkout_v3_pp',
      'checkout_h3_pp_braintree',
      'paycheck1_pr5_h_win',
      'paycheck1_pr5_h_ai',
      'paycheck_combo_3d',
      'checkout-test',
    ]);
  });
});

describe('the session tags', () => {
  it('name the page as its events do, then each experiment as exp_<id>', () => {
    expect(heatmapTags(FACTS)).toEqual([
      ['screen_name', 'one_pager'],
      ['variant', 'lp17'],
      ['flow', 'lp17ch17pr5'],
      ['route', 'tiktok-de'],
      ['traffic_source', 'tiktok'],
      ['config_version', '42+7'],
      ['exp_pw-price', 'cheap'],
    ]);
  });

  it('leave out empty values and repeated keys, and cut long ones', () => {
    const long = 'x'.repeat(HEATMAP_TAG_MAX + 20);
    const tags = heatmapTags({
      ...FACTS,
      route: '',
      experiments: [
        { experiment: 'a', variant: '1' },
        { experiment: 'a', variant: '2' },
        { experiment: long, variant: long },
      ],
    });
    expect(tags.map(([key]) => key)).not.toContain('route');
    expect(tags.filter(([key]) => key === 'exp_a')).toEqual([['exp_a', '1']]);
    expect(tags.at(-1)).toEqual([`exp_${long}`.slice(0, HEATMAP_TAG_MAX), long.slice(0, 100)]);
  });

  it('carry nothing but the facts given: no value comes from anywhere else', () => {
    const text = fc.string({ minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(
        fc.record({
          screen: text,
          variant: text,
          flow: text,
          route: text,
          source: text,
          configVersion: text,
          experiments: fc.array(fc.record({ experiment: text, variant: text }), { maxLength: 5 }),
        }),
        (facts) => {
          const given = new Set([
            facts.screen,
            facts.variant,
            facts.flow,
            facts.route,
            facts.source,
            facts.configVersion,
            ...facts.experiments.map((e) => e.variant),
          ]);
          for (const [, value] of heatmapTags(facts)) expect(given.has(value)).toBe(true);
        },
      ),
    );
  });
});

describe('a page’s heatmap (worker/attribution/tracking-data.ts)', () => {
  const input = {
    ...FACTS,
    clarity: 'abcde12345',
    consent: 'pending' as const,
    assignments: [
      { experiment: 'split', variant: 'lp17', state: 'pinned' as const },
      { experiment: 'lp-ai', variant: 'ai', state: 'pinned' as const },
      { experiment: 'pw-price', variant: 'cheap', state: 'assigned' as const },
      { experiment: 'old-upsell', variant: 'winner', state: 'applied' as const },
    ],
  };

  it('tags the running experiments, the split once as `variant`, not a shipped one', () => {
    const page = heatmapPage(input);
    expect(page?.clarity).toBe('abcde12345');
    const keys = page?.tags.map(([key]) => key) ?? [];
    expect(keys.filter((key) => key.startsWith('exp_'))).toEqual(['exp_lp-ai', 'exp_pw-price']);
    expect(page?.tags).toContainEqual(['variant', 'lp17']);
  });

  it('is absent without an id, after a Decline and on a screen with card fields', () => {
    expect(heatmapPage({ ...input, clarity: null })).toBeUndefined();
    expect(heatmapPage({ ...input, consent: 'denied' })).toBeUndefined();
    expect(heatmapPage({ ...input, screen: 'checkout_v3_tr' })).toBeUndefined();
    expect(heatmapPage({ ...input, consent: 'granted' })).toBeDefined();
    expect(heatmapPage({ ...input, consent: 'not_required' })).toBeDefined();
  });
});
