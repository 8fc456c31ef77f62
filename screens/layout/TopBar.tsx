/**
 * SPEC.md §2: a top bar with the logo, named for screen readers by the brand; the image is the
 * brand's, given to the page's CSS (screens/styles.ts criticalCss).
 */
export function TopBar({ brand }: { brand: string }) {
  return (
    <header className="top-bar">
      <span className="top-bar__logo" role="img" aria-label={brand} />
    </header>
  );
}
