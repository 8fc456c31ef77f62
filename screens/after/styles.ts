/**
 * CSS of the after screens, inlined in every page with the rest of the critical CSS: the QR
 * slot of the success screen, the declined page and the test screens' notice.
 */
export const AFTER_CSS = `
.success__qr{display:flex;flex-direction:column;align-items:center;gap:8px;margin:0 0 24px}
.success__qr-slot{box-sizing:border-box;width:256px;height:256px;border:2px dashed var(--muted);border-radius:12px;background:var(--surface)}
.success__qr-caption{max-width:260px;font-size:13px;text-align:center;color:var(--muted)}
.success__steps-title{margin:0 0 8px;font-size:18px}
.declined__icon{display:grid;place-items:center;width:56px;height:56px;margin:8px auto 0;border-radius:50%;
  background:var(--ink);color:var(--surface);font-size:30px;font-weight:800}
.declined{text-align:center}
.declined__hints-title{margin:0 0 8px;font-size:18px}
.declined__hints{margin:0 0 24px;padding:16px;border-radius:12px;background:var(--surface);list-style:none;
  text-align:start}
.declined__hint{position:relative;margin:0 0 8px;padding-inline-start:20px}
.declined__hint::before{content:'';position:absolute;inset-inline-start:4px;top:9px;width:6px;height:6px;
  border-radius:50%;background:var(--brand)}
.declined__action--secondary .button--primary{background:transparent;color:var(--ink);
  box-shadow:inset 0 0 0 2px var(--ink)}
.test-notice{margin:0 0 16px;padding:10px 14px;border:2px dashed var(--ink);border-radius:12px;
  background:var(--surface);font-weight:600}
.test-screen__cards-title{margin:16px 0 8px;font-size:16px}
.test-screen__cards{margin:0 0 16px}
.test-screen__card{display:flex;justify-content:space-between;gap:12px;padding:4px 0}
.test-screen__card dt{font-family:ui-monospace,monospace;white-space:nowrap}
.test-screen__card dd{min-width:0;margin:0;color:var(--muted);text-align:end;overflow-wrap:anywhere}
`;
