/** CSS of the signup screens, inlined in every page with the rest of the critical CSS. */
export const SIGNUP_CSS = '';
