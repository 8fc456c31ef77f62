/** What the worker tells a page about a marketer's preview of a variant (worker/preview/preview.ts). */
export interface PreviewNotice {
  /** The variant key being previewed. */
  variant: string;
  /** The route being previewed, if it is a route's preview (the variant is then the default). */
  route?: string;
  /** Where the bar's link ends the preview. */
  endUrl: string;
  /**
   * Drawn from the console's draft for its editor's frame: the bar says so rather than name the
   * split's variant the draft is drawn over, and offers no way out (the console is the way out).
   */
  draft?: boolean;
  /** The page shows the Copy area's unpublished texts (its draft's preview link). */
  copyDraft?: boolean;
}

/**
 * Inlined only on a preview. Dark on every theme, so it never passes for part of the funnel; in
 * the flow above the top bar, so it covers nothing of the screen.
 */
const PREVIEW_CSS = `.preview-bar{display:flex;flex-wrap:wrap;align-items:center;
justify-content:center;gap:4px 12px;padding:8px 16px;background:#101828;color:#fff;
font:14px/1.4 system-ui,sans-serif;text-align:center}
.preview-bar__text{margin:0}
.preview-bar__end{padding:4px 0;color:#fff;font-weight:600;text-decoration:underline}`.replace(
  /\n/g,
  '',
);

/**
 * The bar on every screen of a preview: which variant, that the visit is not counted and runs no
 * ads, and a way out. English whatever the page's language: it is console text, for the marketer.
 */
export function PreviewBar({ variant, route, endUrl, draft, copyDraft }: PreviewNotice) {
  return (
    <aside className="preview-bar" aria-label="Preview" lang="en" dir="ltr">
      <style dangerouslySetInnerHTML={{ __html: PREVIEW_CSS }} />
      {draft && route === undefined ? (
        <p className="preview-bar__text">Preview of the draft — not counted, no ads</p>
      ) : (
        <p className="preview-bar__text">
          {route === undefined ? 'Preview of variant ' : 'Preview of route '}
          <strong>{route ?? variant}</strong>
          {copyDraft ? ' with the Copy area’s draft' : ''} — not counted, no ads
        </p>
      )}
      {draft ? null : (
        <a className="preview-bar__end" href={endUrl}>
          End preview
        </a>
      )}
    </aside>
  );
}
