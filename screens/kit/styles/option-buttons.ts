/**
 * SPEC.md §2 selectable option buttons: native radios, invisible but covering their label, so a
 * tap anywhere on the option picks it and arrow keys move between options.
 */
export const OPTION_BUTTONS_CSS = `
.option-buttons{display:grid;gap:8px;margin:0 0 16px;padding:0;border:0;min-width:0}
.option-buttons__legend{margin:0 0 8px;padding:0;font-weight:600}
.option-buttons__option{position:relative;display:flex;align-items:center;min-height:56px;
  padding:12px 16px;border:1.5px solid var(--muted);border-radius:12px;background:var(--surface);
  color:var(--ink);font-weight:500}
.option-buttons__input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;
  cursor:pointer}
.option-buttons__option--selected{border-color:var(--brand);box-shadow:inset 0 0 0 1.5px var(--brand)}
.option-buttons__option:has(:focus-visible){outline:3px solid var(--ink);outline-offset:2px}
`;
