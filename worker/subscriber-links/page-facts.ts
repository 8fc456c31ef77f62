import type { TFunction } from 'i18next';
import type { Theme } from '../../shared/theme';
import type { FunnelConfig } from '../config/load';
import type { Answer, Note } from '../http/answer';
import type { SubscriberEnv } from '../request/envs';
import { noteOn } from '../request/visit';

/**
 * What the subscriber's page knows of its request, read once by its handler from what the
 * sub-app's middleware set: its id and log line, and the page's language, copy, theme, script
 * nonce and config. The page has no visitor.
 */
export interface SubscriberFacts {
  requestId: string;
  note: Note;
  t: TFunction;
  language: string;
  theme: Theme;
  nonce: string;
  config: FunnelConfig;
}

/** The facts of a handler's `c`. */
export function subscriberFactsOf(
  c: { var: Readonly<SubscriberEnv['Variables']> } & Pick<Answer, 'get'>,
): SubscriberFacts {
  const { requestId, t, language, theme, nonce, config } = c.var;
  return { requestId, note: noteOn(c), t, language, theme, nonce, config };
}
