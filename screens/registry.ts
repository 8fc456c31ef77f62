import type { DrawnScreen } from '../shared/screens';
import { AFTER_SCREENS } from './after';
import { AFTER_CSS } from './after/styles';
import { BOTTOM_BUTTON_CSS } from './kit/styles/bottom-button';
import { LANDING_SCREENS } from './landing';
import { LANDING_CSS } from './landing/styles';
import { PLANS_SCREENS } from './plans';
import { PLANS_CSS } from './plans/styles';
import { QUIZ_SCREENS } from './quiz';
import { QUIZ_CSS } from './quiz/styles';
import { SEARCHING_SCREENS } from './searching';
import { SEARCHING_CSS } from './searching/styles';
import { SIGNUP_SCREENS } from './signup';
import { SIGNUP_CSS } from './signup/styles';
import { compactCss } from './styles';
import type { AreaScreens, ScreenDefinition } from './types';

export type { ScreenDefinition } from './types';

/**
 * Gives each screen of an area that area's CSS, inlined in the screen's page, then the screen's
 * own (`css` of its definition), and a screen with a bottom button the layout's rules, which no
 * other page carries.
 */
function withCss<T extends AreaScreens>(screens: T, css: string): T {
  const compact = compactCss(css);
  const pinned = compactCss(BOTTOM_BUTTON_CSS);
  return Object.fromEntries(
    Object.entries(screens).map(([id, definition]) => [
      id,
      {
        ...definition,
        css:
          compact +
          (definition.css ? compactCss(definition.css) : '') +
          (definition.bottomButton ? pinned : ''),
      },
    ]),
  ) as T;
}

// The plans and after screens share their styles (summaries, test notices, store links).
const MONEY_CSS = PLANS_CSS + AFTER_CSS;

/**
 * Every screen id of SPEC.md §2 and what renders it, and the quiz's question screen; the
 * compiler checks none is missing.
 */
export const SCREENS = {
  ...withCss(LANDING_SCREENS, LANDING_CSS),
  ...withCss(SEARCHING_SCREENS, SEARCHING_CSS),
  ...withCss(SIGNUP_SCREENS, SIGNUP_CSS),
  ...withCss(PLANS_SCREENS, MONEY_CSS),
  ...withCss(AFTER_SCREENS, MONEY_CSS),
  ...withCss(QUIZ_SCREENS, QUIZ_CSS),
} satisfies Record<DrawnScreen, ScreenDefinition>;
