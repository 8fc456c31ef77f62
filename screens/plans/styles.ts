/** CSS of the plans screens, inlined in every page with the rest of the critical CSS. */
export const PLANS_CSS = '';
