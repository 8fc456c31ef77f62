/**
 * One phone of the app, drawn: the frame and a screen of the family map or the family list.
 * Inline SVG coloured by the theme's variables (screens/styles.ts) through `.art` classes
 * (ART_CSS, ./styles/art.ts), so every theme draws it in its own colours with no request and
 * nothing to wait for. Shared by the landing's illustration and the success screen's.
 */

import type { ReactNode } from 'react';

/** Pins of the family on the map: where, and the tint of each one's photo. */
const PINS = [
  { x: 34, y: 62, tint: 'a' },
  { x: 86, y: 100, tint: 'b' },
  { x: 52, y: 138, tint: 'c' },
] as const;

function Pin({ x, y, tint }: { x: number; y: number; tint: string }) {
  return (
    <g transform={`translate(${x} ${y})`}>
      <path className="art__brand" d="M0 14C-9 4-12 0-12-6a12 12 0 0 1 24 0c0 6-3 10-12 20z" />
      <circle className={`art__face art__face--${tint}`} cy="-6" r="8" />
      <circle className="art__person" cy="-8" r="3" />
      <path className="art__person" d="M-5 -1a5 4 0 0 1 10 0z" />
    </g>
  );
}

function MapScreen() {
  return (
    <>
      <rect className="art__ground" x="8" y="24" width="112" height="180" />
      <path className="art__park" d="M70 36h40v34H70z" />
      <path className="art__water" d="M8 168c30-14 60 8 112-8v44H8z" />
      <path className="art__street" d="M8 86l112-16M8 124l112 10M40 24l-6 180M96 24l8 180" />
      {PINS.map((pin) => (
        <Pin key={pin.tint} {...pin} />
      ))}
      <rect className="art__surface" x="8" y="176" width="112" height="28" />
      <circle className="art__face art__face--b" cx="24" cy="190" r="7" />
      <rect className="art__line" x="36" y="184" width="50" height="5" rx="2.5" />
      <rect className="art__line art__line--soft" x="36" y="193" width="34" height="4" rx="2" />
    </>
  );
}

function ListScreen() {
  return (
    <>
      <rect className="art__surface" x="8" y="24" width="112" height="180" />
      <rect className="art__brand" x="8" y="24" width="112" height="30" />
      <rect className="art__on-brand" x="18" y="36" width="52" height="6" rx="3" />
      {PINS.map((pin, row) => (
        <g key={pin.tint} transform={`translate(0 ${66 + row * 40})`}>
          <circle className={`art__face art__face--${pin.tint}`} cx="26" cy="12" r="11" />
          <rect className="art__line" x="44" y="4" width={50 - row * 8} height="6" rx="3" />
          <rect
            className="art__line art__line--soft"
            x="44"
            y="15"
            width="60"
            height="5"
            rx="2.5"
          />
          <circle className="art__brand" cx="108" cy="7" r="3" />
        </g>
      ))}
    </>
  );
}

/** A phone 128×228 in its own units, placed by `x` and `y` in the drawing that holds it. */
export function PhoneArt({ x, y, screen }: { x: number; y: number; screen: 'map' | 'list' }) {
  return (
    <g transform={`translate(${x} ${y})`}>
      <rect className="art__frame" width="128" height="228" rx="18" />
      <rect className="art__canvas" x="8" y="10" width="112" height="208" rx="12" />
      <clipPath id={`art-screen-${screen}`}>
        <rect x="8" y="10" width="112" height="208" rx="12" />
      </clipPath>
      <g clipPath={`url(#art-screen-${screen})`}>
        {screen === 'map' ? <MapScreen /> : <ListScreen />}
      </g>
      <rect className="art__frame" x="44" y="14" width="40" height="8" rx="4" />
    </g>
  );
}

/**
 * A drawing of the app, 320×250, on the theme's halo: named for screen readers by `label` (a
 * translation), its size set so it takes its place before it paints.
 */
export function AppArt({ label, children }: { label: string; children: ReactNode }) {
  return (
    <figure className="app-art">
      <svg
        className="art"
        viewBox="0 0 320 250"
        width="320"
        height="250"
        role="img"
        aria-label={label}
      >
        <circle className="art__halo" cx="160" cy="128" r="116" />
        {children}
      </svg>
    </figure>
  );
}
