/** SPEC.md §2, §9: the linear progress bar, segmented with a 5px gap. */
export const LINEAR_PROGRESS_CSS = `
.linear-progress{display:flex;gap:5px;margin:0 0 16px}
.linear-progress__segment{flex:1;height:4px;border-radius:2px;background:var(--muted);opacity:.25}
.linear-progress__segment--done{background:var(--brand);opacity:1}
`;
