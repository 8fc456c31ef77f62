/**
 * SPEC.md §4, §5: the email field and its domain shortcuts (each at least 90 wide). The error
 * red is fixed (#b42318 reads 6:1 on every theme's canvas). The field's text is 16px, below
 * which iOS zooms the page on focus.
 */
export const EMAIL_INPUT_CSS = `
.email-input{margin:0 0 16px}
.email-input__label{display:block;margin:0 0 6px;font-weight:600;font-size:15px}
.email-input__field{display:block;width:100%;height:56px;padding-inline:16px;
  border:1.5px solid var(--muted);border-radius:12px;background:var(--surface);color:var(--ink);
  font:16px var(--font)}
html[dir=rtl] .email-input__field{text-align:end}
.email-input__field:focus-visible{outline:3px solid var(--brand);outline-offset:1px}
.email-input--error .email-input__field{border-color:#b42318}
.email-input__error{margin:6px 0 0;color:#b42318;font-size:14px}
.email-input__error:empty{margin:0}
.email-input__shortcuts{min-width:0;margin:12px 0 0;padding:0;border:0}
.email-input__shortcut-rows{display:grid}
.email-input__shortcut-row{grid-area:1/1;display:flex;flex-wrap:wrap;gap:8px;min-width:0}
.email-input__shortcut-row--room{visibility:hidden}
.email-input__shortcut{box-sizing:border-box;min-width:90px;height:36px;padding-inline:12px;
  border:1.5px solid var(--muted);border-radius:18px;background:var(--surface);color:var(--ink);
  font:500 14px var(--font);cursor:pointer}
span.email-input__shortcut{display:inline-flex;align-items:center;justify-content:center}
.email-input__shortcut[aria-disabled=true]{cursor:default}
`;
