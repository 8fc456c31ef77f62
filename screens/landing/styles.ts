/** CSS of the landing screens, inlined in every page with the rest of the critical CSS. */
export const LANDING_CSS = '';
