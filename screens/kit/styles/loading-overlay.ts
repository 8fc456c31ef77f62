/** SPEC.md §2: the full-screen loading screen; it takes every click while it is shown. */
export const LOADING_OVERLAY_CSS = `
.loading-overlay{position:fixed;inset:0;z-index:50;display:flex;flex-direction:column;
  align-items:center;justify-content:center;gap:16px;padding:16px;background:var(--canvas);
  color:var(--ink);text-align:center;pointer-events:auto}
.loading-overlay__spinner{width:48px;height:48px;border-radius:50%;border:4px solid var(--muted);
  border-top-color:var(--brand);animation:kit-spin .8s linear infinite}
.loading-overlay__message{max-width:343px;margin:0;font-weight:600}
`;
