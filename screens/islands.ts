import { AFTER_ISLANDS } from './after/islands';
import { KIT_ISLANDS } from './kit/islands';
import { LANDING_ISLANDS } from './landing/islands';
import { LAYOUT_ISLANDS } from './layout/islands';
import { PLANS_ISLANDS } from './plans/islands';
import { SEARCHING_ISLANDS } from './searching/islands';
import { SIGNUP_ISLANDS } from './signup/islands';

/**
 * Every island the screens may render, by name. The name is also the file `islands/<Name>.tsx`
 * that the build turns into the chunk the browser loads. Each area lists its own.
 */
export const ISLANDS = {
  ...KIT_ISLANDS,
  ...LAYOUT_ISLANDS,
  ...LANDING_ISLANDS,
  ...SEARCHING_ISLANDS,
  ...SIGNUP_ISLANDS,
  ...PLANS_ISLANDS,
  ...AFTER_ISLANDS,
} as const;

export type IslandName = keyof typeof ISLANDS;
