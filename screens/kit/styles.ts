/** CSS of the shared UI kit, inlined in every page with the rest of the critical CSS. */
export const KIT_CSS = '';
