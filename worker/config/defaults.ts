import { type ContentDocument, EMPTY_CONTENT } from '../../shared/config/content';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import type { FlowsDocument } from '../../shared/config/flows';
import type { RoutingDocument } from '../../shared/config/routing';
import type { SplitDocument } from '../../shared/config/split';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';

/**
 * The flows of SPEC.md §2, used whenever KV holds no valid `flows` document.
 */
export const DEFAULT_FLOWS: FlowsDocument = {
  version: 'builtin',
  flows: {
    default: ['one_pager', 'searching', 'signup', 'checkout_v3_tr', 'upsell_an_private', 'success'],
    lp1ch2: ['one_pager', 'searching', 'signup', 'checkout_v3_tr', 'upsell_an_private', 'success'],
    lp11ch8: ['one_pager', 'searching', 'signup', 'checkout_h3_pp', 'upsell_an_private', 'success'],
    lp11ch8_vc: [
      'one_pager',
      'searching',
      'signup',
      'checkout_v3_pp',
      'upsell_an_private',
      'success',
    ],
    lp11ch8b: [
      'one_pager',
      'searching',
      'signup',
      'checkout_h3_pp_braintree',
      'upsell_an_private',
      'success',
    ],
    lp17ch17pr5: [
      'one_pager_all',
      'searching_2',
      'signup_testim',
      'paycheck1_pr5_h_win',
      'upsell_an_private',
      'success',
    ],
    stripe_test: ['auto-signup', 'checkout-test', 'success'],
  },
};

/**
 * Default split (SPEC.md §4: the default flow is 'default'). Everyone gets the default
 * variant until marketers put weights in KV.
 */
export const DEFAULT_SPLIT: SplitDocument = {
  version: 'builtin',
  defaultVariant: 'default',
  variants: {
    default: { weight: 100, flow: 'default' },
  },
};

/**
 * Routing before marketers add routes: one route, `default`, taking everyone to the split test
 * (which decides their flow, SPEC.md §4).
 */
export const DEFAULT_ROUTING: RoutingDocument = {
  version: 'builtin',
  audiences: {},
  routes: [{ id: DEFAULT_ROUTE_ID, flow: 'default' }],
};

/**
 * Experiments before marketers add any: none but the split test, which the `split` section holds
 * (worker/experiments/config/migrate-split.ts); every layer seeded with its own name.
 */
export const DEFAULT_EXPERIMENTS: ExperimentsDocument = { version: 'builtin', experiments: {} };

/** Content before marketers give any: every screen as code composes it (worker/content/). */
export const DEFAULT_CONTENT: ContentDocument = EMPTY_CONTENT;
