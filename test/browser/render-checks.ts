import type { Page } from 'playwright-core';
import {
  type LayoutFindings,
  layoutProblems,
  PROBES_SCRIPT,
  type ProbeWindow,
} from './layout-checks';

/**
 * The screenshot walk's checks (every-screen.test.ts): besides the layout checks of
 * layout-checks.ts, what a visitor reads wrong at a glance:
 * - text overflowing its box: a line of text reaching past the box it is laid out in (cut off
 *   by an overflow that hides it, or spilling over its neighbours), in HTML or in an inline SVG;
 * - a clipped logo: a logo drawn as SVG (an image, a background or inline) whose drawing reaches
 *   past its own viewBox, so the box shows only part of it ("FamilyLocato");
 * - mixed text direction in a right-to-left page: an address, a domain, a phone number or a pair
 *   of coordinates not isolated as left to right, so its neutral characters move to the wrong
 *   end ("example.com@", "44 7400 123456+"); a field holding one must be left to right itself.
 * All of it in one round trip per render: the page measures itself and answers with findings.
 */

export interface RenderFindings extends LayoutFindings {
  textOverflow: string[];
  clippedLogos: string[];
  mixedDirection: string[];
}

export function renderProblems(findings: RenderFindings): string[] {
  return [
    ...layoutProblems(findings),
    ...findings.textOverflow.map((line) => `text overflow: ${line}`),
    ...findings.clippedLogos.map((line) => `clipped logo: ${line}`),
    ...findings.mixedDirection.map((line) => `mixed direction: ${line}`),
  ];
}

/** Text may reach this far past its box (italic overhang, sub-pixel layout) without failing. */
const TEXT_TOLERANCE_PX = 1.5;
/** As layout-checks.ts: boxes may touch or graze by this much. */
const OVERLAP_TOLERANCE_PX = 2;

export const RENDER_OPTIONS = {
  overlapTolerance: OVERLAP_TOLERANCE_PX,
  textTolerance: TEXT_TOLERANCE_PX,
};

export type RenderWindow = ProbeWindow & {
  __measureRender(options: typeof RENDER_OPTIONS): Promise<RenderFindings>;
};

/**
 * Puts the measurements into a freshly loaded page, once per page load: each width's look is
 * then one short call rather than the whole measurement sent again.
 */
export async function prepareRenderChecks(page: Page): Promise<void> {
  await page.evaluate(RENDER_CHECKS_SCRIPT);
}

/** prepareRenderChecks's script, for a caller that installs several checks in one call. */
export const RENDER_CHECKS_SCRIPT = `${PROBES_SCRIPT} globalThis.__measureRender = ${measureRender};`;

/** Every check on the page as it is now, in one evaluate, after prepareRenderChecks. */
export function inspectRender(page: Page): Promise<RenderFindings> {
  return page.evaluate(async (options) => {
    // Two frames: a resize lays out, and effects that follow it settle.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return (window as unknown as RenderWindow).__measureRender(options);
  }, RENDER_OPTIONS);
}

/**
 * Runs in the page, after installProbes, on a page settled since its last change: its caller
 * waits the frames (inspectRender above; the walk's width, screen-walk.ts, waits them once for
 * all its checks).
 */
async function measureRender(options: {
  overlapTolerance: number;
  textTolerance: number;
}): Promise<RenderFindings> {
  const probes = (window as unknown as ProbeWindow).__layoutProbes;
  const style = (element: Element) => getComputedStyle(element);
  const quote = (text: string) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return JSON.stringify(flat.length > 40 ? `${flat.slice(0, 39)}…` : flat);
  };
  const isInline = (element: Element) => /^(inline|contents)$/.test(style(element).display);
  /** The outermost <svg> around an element of an inline SVG drawing. */
  const outerSvg = (element: Element): SVGSVGElement | null => {
    let svg = element.closest('svg');
    while (svg?.parentElement?.closest('svg')) svg = svg.parentElement.closest('svg');
    return svg;
  };
  /** The box a text node is laid out in: its nearest block-level ancestor, or its SVG. */
  const layoutBox = (element: Element): Element | null => {
    if (element instanceof SVGElement) return outerSvg(element);
    let box: Element | null = element;
    while (box && isInline(box)) box = box.parentElement;
    return box;
  };
  const visibleText = function* () {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const hidden = new Map<Element, boolean>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || (node.textContent ?? '').trim() === '') continue;
      if (!hidden.has(element)) hidden.set(element, probes.isHidden(element));
      if (!hidden.get(element)) yield { node, element };
    }
  };

  const textOverflow = (): string[] => {
    const found = new Map<string, number>();
    const range = document.createRange();
    for (const { node, element } of visibleText()) {
      const box = layoutBox(element);
      if (!box || box === document.body || box.matches('input,select,textarea,option')) continue;
      const boxStyle = style(box);
      // A scrolling box shows the rest on scroll (carousels, tables): nothing is lost.
      if (/auto|scroll/.test(boxStyle.overflowX + boxStyle.overflowY)) continue;
      const outer = box.getBoundingClientRect();
      const inner =
        box instanceof SVGElement
          ? outer
          : {
              left: outer.left + box.clientLeft,
              right: outer.left + box.clientLeft + box.clientWidth,
              top: outer.top + box.clientTop,
              bottom: outer.top + box.clientTop + box.clientHeight,
            };
      if (inner.right - inner.left < 1) continue;
      const s = style(element);
      const fontSize = Number.parseFloat(s.fontSize);
      const lineHeight = Number.parseFloat(s.lineHeight);
      const height = Number.isNaN(lineHeight) ? fontSize * 1.2 : Math.max(lineHeight, fontSize);
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width < 1) continue;
        const trim = Math.max(0, (rect.height - height) / 2);
        const past = Math.max(
          rect.right - inner.right,
          inner.left - rect.left,
          rect.bottom - trim - inner.bottom,
          inner.top - (rect.top + trim),
        );
        if (past <= options.textTolerance) continue;
        const line = `${quote(node.textContent ?? '')} (${probes.describe(element)}) reaches past its box ${probes.describe(box)} by`;
        found.set(line, Math.max(found.get(line) ?? 0, Math.round(past)));
      }
    }
    return [...found].map(([line, px]) => `${line} ${px}px`);
  };

  /** An SVG's drawing against its viewBox, in the viewBox's units; null when it fits. */
  const svgSpill = (svg: SVGSVGElement): string | null => {
    const view = svg.viewBox.baseVal;
    if (!view || view.width === 0) return null;
    const drawn = svg.getBBox();
    const spill = Math.max(
      view.x - drawn.x,
      view.y - drawn.y,
      drawn.x + drawn.width - (view.x + view.width),
      drawn.y + drawn.height - (view.y + view.height),
    );
    if (spill <= 0.5) return null;
    const span = (from: number, size: number) => `${Math.round(from)}…${Math.round(from + size)}`;
    return `draws x ${span(drawn.x, drawn.width)}, y ${span(drawn.y, drawn.height)} in a viewBox x ${span(view.x, view.width)}, y ${span(view.y, view.height)}`;
  };

  const page = window as unknown as { __logoSpills?: Map<string, string | null> };
  page.__logoSpills ??= new Map();
  const spills = page.__logoSpills;
  const clippedLogos = async (): Promise<string[]> => {
    const found: string[] = [];
    const logos = [
      ...document.body.querySelectorAll('[class*="logo" i], img[src*="logo" i]'),
    ].filter((element) => !probes.isHidden(element));
    const shelf = document.createElement('div');
    // Out of the page's styles, as an SVG image is drawn: left to right, default fonts.
    shelf.style.cssText =
      'all:initial;direction:ltr;position:absolute;left:-10000px;top:0;visibility:hidden';
    document.body.appendChild(shelf);
    try {
      for (const logo of logos) {
        if (logo instanceof SVGSVGElement) {
          const spill = svgSpill(logo);
          if (spill) found.push(`${probes.describe(logo)} ${spill}`);
          continue;
        }
        const url =
          logo instanceof HTMLImageElement
            ? logo.currentSrc || logo.src
            : /url\("?([^")]+)"?\)/.exec(style(logo).backgroundImage)?.[1];
        if (!url || !/\.svg(\?|#|$)|^data:image\/svg/.test(url)) continue;
        // A drawing against its own viewBox is the same at every width: measured once a page.
        if (!spills.has(url)) {
          const source = await (await fetch(url)).text();
          const drawing = new DOMParser().parseFromString(source, 'image/svg+xml').documentElement;
          if (!(drawing instanceof SVGSVGElement)) {
            spills.set(url, null);
            continue;
          }
          shelf.replaceChildren(document.importNode(drawing, true));
          spills.set(url, svgSpill(shelf.firstElementChild as SVGSVGElement));
        }
        const spill = spills.get(url);
        const name = url.startsWith('data:') ? 'a data: URL' : url.split('/').pop();
        if (spill) found.push(`${probes.describe(logo)} (${name}) ${spill}`);
      }
    } finally {
      shelf.remove();
    }
    return found;
  };

  /** Left-to-right content whose neutral characters a right-to-left line would move. */
  const LTR_CONTENT = [
    /[^\s@]*@[^\s@]+\.[a-z]{2,}/i, // an address or a domain shortcut
    /\+\d[\d\s()-]{5,}\d/, // an international phone number
    /-?\d+[.,]\d+,\s*-?\d+[.,]\d+/, // coordinates
  ];
  const ltrContent = (text: string) =>
    LTR_CONTENT.map((pattern) => pattern.exec(text)?.[0]).find(Boolean);
  /** Whether the element, or one between it and its block, isolates its content left to right. */
  const isolatedLtr = (element: Element): boolean => {
    for (let e: Element | null = element; e; e = e.parentElement) {
      const s = style(e);
      if (s.direction === 'ltr' && (!isInline(e) || s.unicodeBidi !== 'normal')) return true;
      if (!isInline(e)) return false;
    }
    return false;
  };

  const mixedDirection = (): string[] => {
    if (style(document.body).direction !== 'rtl') return [];
    const found = new Set<string>();
    for (const field of document.body.querySelectorAll<HTMLInputElement>('input,textarea')) {
      if (probes.isHidden(field) || /^(hidden|checkbox|radio)$/.test(field.type)) continue;
      const ltr =
        /^(email|tel|url)$/.test(field.type) || ltrContent(`${field.value} ${field.placeholder}`);
      if (ltr && style(field).direction !== 'ltr')
        found.add(`${probes.describe(field)} holds left-to-right text but reads right to left`);
    }
    for (const { node, element } of visibleText()) {
      const content = ltrContent(node.textContent ?? '');
      if (content && !isolatedLtr(element))
        found.add(`${quote(content)} in ${probes.describe(element)} is not isolated left to right`);
    }
    return [...found];
  };

  const atTop = {
    overflow: probes.overflow(),
    overlaps: probes.overlaps(options.overlapTolerance),
    textOverflow: textOverflow(),
    mixedDirection: mixedDirection(),
    clippedLogos: await clippedLogos(),
  };
  const scroller = document.scrollingElement ?? document.documentElement;
  window.scrollTo(0, scroller.scrollHeight);
  const underBottomBar = probes.underBottomBar(options.overlapTolerance);
  window.scrollTo(0, 0);
  return { ...atTop, underBottomBar };
}
