/** CSS of the after screens, inlined in every page with the rest of the critical CSS. */
export const AFTER_CSS = '';
