/** CSS of the searching screens, inlined in every page with the rest of the critical CSS. */
export const SEARCHING_CSS = '';
