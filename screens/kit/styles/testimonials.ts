/** What other families say about the app: a list of quotes, each on a card of its own beside a portrait. */
export const TESTIMONIALS_CSS = `
.signup__testimonials{margin:0 0 24px}
.signup__testimonial-list{list-style:none;margin:0;padding:0;display:grid;gap:12px}
.signup__testimonial{display:grid;grid-template-columns:40px minmax(0,1fr);column-gap:12px;background:var(--surface);border-radius:12px;padding:14px 16px;box-shadow:0 1px 2px rgba(16,24,40,.08)}
.signup__portrait{grid-row:1/span 2;width:40px;height:40px;border-radius:50%}
.signup__quote{margin:0 0 6px}
.signup__author{margin:0;color:var(--muted);font-weight:600;font-size:14px}
`;
