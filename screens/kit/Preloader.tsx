import { PRELOADER_CLASS } from '../../islands/kit/preloader';

/**
 * SPEC.md §2, §9: the start-up preloader. The screen arrives as server HTML, so it is visible
 * only while the page has no content yet (body without .page, KIT_CSS) and never hides content
 * that is already there: it holds no text or image, so it cannot become the Largest Contentful
 * Paint, and a page whose shell arrives at once is painted without it. It fades over 0.2 s, and
 * the page script removes it 1 s after load (islands/kit/preloader.ts).
 */
export function Preloader() {
  return (
    <div className={PRELOADER_CLASS} aria-hidden="true">
      <span className="preloader__spinner" />
    </div>
  );
}
