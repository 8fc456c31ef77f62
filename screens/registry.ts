import type { ScreenId } from '../shared/screens';
import { AFTER_SCREENS } from './after';
import { LANDING_SCREENS } from './landing';
import { PLANS_SCREENS } from './plans';
import { SEARCHING_SCREENS } from './searching';
import { SIGNUP_SCREENS } from './signup';
import type { ScreenDefinition } from './types';

export type { ScreenDefinition } from './types';

/** Every screen id of SPEC.md §2 and what renders it; the compiler checks none is missing. */
export const SCREENS = {
  ...LANDING_SCREENS,
  ...SEARCHING_SCREENS,
  ...SIGNUP_SCREENS,
  ...PLANS_SCREENS,
  ...AFTER_SCREENS,
} satisfies Record<ScreenId, ScreenDefinition>;
