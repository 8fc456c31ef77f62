import { CONTINUE_BUTTON_CSS } from './styles/continue-button';
import { EMAIL_INPUT_CSS } from './styles/email-input';
import { ISLAND_FAILURE_CSS } from './styles/island-failure';
import { LOADING_OVERLAY_CSS } from './styles/loading-overlay';
import { LOCATED_BANNER_CSS } from './styles/located-banner';
import { PAGE_CSS } from './styles/page';
import { STATIC_PIECES_CSS } from './styles/static-pieces';
import { TOAST_CSS } from './styles/toast';

/** CSS of the shared UI kit, inlined in every page with the rest of the critical CSS. */
export const KIT_CSS = [
  PAGE_CSS,
  CONTINUE_BUTTON_CSS,
  TOAST_CSS,
  LOADING_OVERLAY_CSS,
  EMAIL_INPUT_CSS,
  LOCATED_BANNER_CSS,
  STATIC_PIECES_CSS,
  ISLAND_FAILURE_CSS,
].join('');
