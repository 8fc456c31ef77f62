import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ConfigDocument } from '../../../shared/console-api/config';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
} from '../../../worker/config/defaults';

/**
 * A publishable config document of the console's tests: the split draws `default` and `lp1ch2`
 * half each (their flows SPEC.md §2's, the same screens), the default route alone, no experiment
 * and no content.
 */
export const SPLIT_DOCUMENT: ConfigDocument = {
  split: {
    version: 'draft',
    defaultVariant: 'default',
    variants: { default: { weight: 50, flow: 'default' }, lp1ch2: { weight: 50 } },
  },
  flows: {
    version: 'draft',
    flows: {
      default: [...(DEFAULT_FLOWS.flows.default ?? [])],
      lp1ch2: [...(DEFAULT_FLOWS.flows.lp1ch2 ?? [])],
    },
  },
  routing: DEFAULT_ROUTING,
  experiments: DEFAULT_EXPERIMENTS,
  content: EMPTY_CONTENT,
};
