import { OPEN_IN_BROWSER_CSS } from '../kit/styles/open-in-browser';
import { CHECKOUT_CSS } from './styles/checkout';
import { PLANS_DESKTOP_CSS } from './styles/desktop';
import { OFFERS_CSS } from './styles/offers';
import { PLAN_PICKER_CSS } from './styles/plan-picker';
import { RECEIPT_CSS } from './styles/receipt';

/** CSS of the plans screens, inlined in every page with the rest of the critical CSS. */
export const PLANS_CSS = [
  PLAN_PICKER_CSS,
  CHECKOUT_CSS,
  OFFERS_CSS,
  RECEIPT_CSS,
  OPEN_IN_BROWSER_CSS,
  PLANS_DESKTOP_CSS,
].join('');
