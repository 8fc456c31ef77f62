/**
 * SPEC.md §2, §9: the Continue button is 56 high with radius 12, whether it is the server's
 * ContinueForm button or an island's ContinueButton: both carry `.button.button--primary`.
 */
export const CONTINUE_BUTTON_CSS = `
.button{display:flex;align-items:center;justify-content:center;gap:8px;width:100%;height:56px;
  padding-inline:16px;border:0;border-radius:12px;font:600 17px/1 var(--font);
  text-decoration:none;cursor:pointer}
.button--primary{background:var(--brand);color:var(--brand-ink)}
.button:disabled,.button[aria-disabled=true]{opacity:.55;cursor:not-allowed}
.button__spinner{width:18px;height:18px;border-radius:50%;border:2px solid currentColor;
  border-inline-end-color:transparent;animation:kit-spin .8s linear infinite}
.continue-form{margin:0 0 24px}
`;
