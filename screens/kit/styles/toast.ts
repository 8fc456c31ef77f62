/**
 * SPEC.md §8 UI toast: the message in a red box with a close cross. The red is fixed (white on
 * #d92d20 is 4.8:1) so every theme shows errors alike.
 */
export const TOAST_CSS = `
.toast-area{position:fixed;inset-inline:0;top:64px;z-index:60;display:flex;justify-content:center;
  padding-inline:16px;pointer-events:none}
.toast{display:flex;gap:12px;align-items:flex-start;width:100%;max-width:343px;padding:12px 14px;
  border-radius:12px;background:#d92d20;color:#fff;pointer-events:auto}
.toast__message{flex:1}
.toast__close{min-width:24px;min-height:24px;padding:0;border:0;background:none;color:inherit;
  font-size:22px;line-height:1;cursor:pointer}
.toast__close:focus-visible{outline-color:#fff}
`;
