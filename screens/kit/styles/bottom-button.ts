/**
 * SPEC.md §2 Layout, §9: a screen wrapped with a bottom button gets 88px bottom padding instead of
 * 16px (56px button, 24px below it, 8px between it and the content), and the button stays 24px
 * above the bottom edge. Inlined only in the pages of such screens (screens/registry.ts). From a
 * tablet's 768, where the screen has two columns (screens/plans/styles/wide.ts), the button stands
 * in the page where the screen puts it instead: pinned to the bottom of a wide window it would
 * sit far from what it continues.
 */
export const BOTTOM_BUTTON_CSS = `
.page--bottom-button{padding-bottom:88px}
.bottom-button{position:fixed;inset-inline:0;bottom:24px;z-index:5;display:flex;
  justify-content:center;padding-inline:16px;pointer-events:none}
.bottom-button>*{width:100%;max-width:343px;margin:0;pointer-events:auto}
@media (min-width:768px){.page--bottom-button{padding-bottom:16px}
  .bottom-button{position:static;padding:0;margin:0 0 16px}.bottom-button>*{max-width:none}}
`;
