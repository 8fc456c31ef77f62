/** What other families say about the app: a list of quotes, each on a card of its own. */
export const TESTIMONIALS_CSS = `
.signup__testimonials{margin:0 0 24px}
.signup__testimonial-list{list-style:none;margin:0;padding:0;display:grid;gap:12px}
.signup__testimonial{background:var(--surface);border-radius:12px;padding:14px 16px;box-shadow:0 1px 2px rgba(16,24,40,.08)}
.signup__quote{margin:0 0 6px}
.signup__author{margin:0;color:var(--muted);font-weight:600;font-size:14px}
`;
