import { describe, expect, it } from 'vitest';
import { KIT_CSS } from '../../../screens/kit/styles';

const css = KIT_CSS.replace(/\s*\n\s*/g, '');

/** Colours the kit may fix regardless of theme: error reds with their white text, hairlines. */
const FIXED_COLOURS = ['#d92d20', '#fff', '#b42318', 'rgba(16,24,40,.08)'];

/** Each class belongs to one kit component (BEM-ish), so areas' CSS cannot collide with it. */
const COMPONENTS = [
  'top-bar',
  'page',
  'preloader',
  'visually-hidden',
  'button',
  'continue-form',
  'toast',
  'toast-area',
  'loading-overlay',
  'email-input',
  'located-banner',
  'trust-labels',
  'step-list',
  'store-badges',
  'store-badge',
  'provider-logo',
  'support-links',
  'divider',
  'offer-banner',
  'island-failure',
  'linear-progress',
];

describe('KIT_CSS', () => {
  it('takes every other colour from the theme tokens, so all four themes work', () => {
    const literals = css.match(/#[0-9a-f]{3,8}\b|rgba?\([^)]*\)|hsla?\([^)]*\)/gi) ?? [];
    expect(literals.filter((colour) => !FIXED_COLOURS.includes(colour))).toEqual([]);
    const tokens = new Set(css.match(/var\(--[a-z-]+\)/g));
    expect([...tokens].sort()).toEqual(
      ['--brand', '--brand-ink', '--canvas', '--font', '--ink', '--logo', '--muted', '--surface']
        .map((token) => `var(${token})`)
        .sort(),
    );
  });

  it('uses logical properties only, so right-to-left pages mirror by themselves', () => {
    expect(css).not.toMatch(/(margin|padding|border)-(left|right)\b/);
    expect(css).not.toMatch(/[;{](left|right):/);
    expect(css).not.toMatch(/(text-align|float):(left|right)/);
  });

  it('names every class after its component', () => {
    const classes = new Set([...css.matchAll(/\.([a-z][\w-]*)/g)].map((match) => match[1]!));
    const strays = [...classes].filter(
      (name) =>
        !COMPONENTS.some(
          (component) =>
            name === component ||
            name.startsWith(`${component}__`) ||
            name.startsWith(`${component}--`),
        ),
    );
    expect(strays).toEqual([]);
  });

  it('shows a visible focus ring on every interactive element', () => {
    expect(css).toContain(
      ':where(a,button,input,select,textarea,summary,[tabindex]):focus-visible{outline:3px solid var(--ink)',
    );
  });

  it('stops the spinners and the preloader fade for visitors who ask for reduced motion', () => {
    const reduced = css.match(/@media \(prefers-reduced-motion:reduce\)\{(.*?\})\}/)?.[1] ?? '';
    expect(reduced).toContain('.preloader{transition:none}');
    for (const spinner of ['.preloader__spinner', '.loading-overlay__spinner', '.button__spinner'])
      expect(reduced).toMatch(new RegExp(`${spinner.replace('.', '\\.')}[^{]*\\{animation:none`));
    expect(reduced).toMatch(/\{animation:none\}/);
  });

  it('changes the layout at the tablet (432) and desktop (992) widths (SPEC.md §9)', () => {
    expect(css).toContain('@media (min-width:432px){.page{padding-top:32px}}');
    expect(css).toContain('@media (min-width:992px){');
  });

  it('makes email shortcuts at least 90px wide (SPEC.md §5)', () => {
    expect(css).toMatch(/\.email-input__shortcut\{[^}]*min-width:90px/);
  });
});
