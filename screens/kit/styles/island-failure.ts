/** What shows in place of an island whose script did not load (islands/island-failure.ts). */
export const ISLAND_FAILURE_CSS = `
.island-failure{margin:0 0 24px;padding:16px;border:1.5px solid var(--muted);border-radius:12px;
  background:var(--surface);text-align:center}
.island-failure__text{margin:0 0 12px}
`;
