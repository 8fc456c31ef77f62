/** SPEC.md §2: a top bar with the logo; the logo image comes from the theme (CSS). */
export function TopBar({ brand }: { brand: string }) {
  return (
    <header className="top-bar">
      <span className="top-bar__logo" role="img" aria-label={brand} />
    </header>
  );
}
