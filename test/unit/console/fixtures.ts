import type { ConfigDocument, ConsoleState } from '../../../shared/console-api';

/** A live config with three variants, one walking a flow of its own and one paused. */
export function liveDocument(): ConfigDocument {
  return {
    split: {
      version: 'v2',
      defaultVariant: 'default',
      phase: 1,
      variants: {
        default: { weight: 50 },
        'lp11ch8/vc': { weight: 30 },
        lp17: { weight: 20, flow: 'lp17ch17pr5' },
        old: { weight: 0, flow: 'default' },
      },
    },
    flows: {
      version: 'v2',
      flows: {
        default: ['one_pager', 'searching', 'signup', 'checkout_v3_tr', 'success'],
        lp11ch8_vc: ['one_pager', 'searching', 'signup', 'checkout_v3_pp', 'success'],
        lp17ch17pr5: ['one_pager_all', 'searching_2', 'signup_testim', 'success'],
      },
    },
  };
}

export function consoleState(): ConsoleState {
  return {
    author: 'marketer@example.com',
    live: liveDocument(),
    head: {
      seq: 2,
      id: 'v2',
      at: '2026-11-22T08:06:37.840Z',
      author: 'anna@example.com',
      note: 'more traffic to lp17',
      base: 1,
      phase: 1,
      source: 'console',
    },
    drift: null,
    screens: [
      { id: 'one_pager', kind: 'landing' },
      { id: 'one_pager_all', kind: 'landing' },
      { id: 'searching', kind: 'searching' },
      { id: 'searching_2', kind: 'searching' },
      { id: 'signup', kind: 'signup' },
      { id: 'signup_testim', kind: 'signup' },
      { id: 'checkout_v3_tr', kind: 'checkout' },
      { id: 'checkout_v3_pp', kind: 'checkout' },
      { id: 'upsell_an_private', kind: 'upsell' },
      { id: 'success', kind: 'end' },
    ],
    previews: {
      default: '/console/preview/default',
      'lp11ch8/vc': '/console/preview/lp11ch8%2Fvc',
      lp17: '/console/preview/lp17',
      old: '/console/preview/old',
    },
  };
}
